// formatCount makes its Intl.NumberFormat only for a count it does not group by hand: creating one maps ~4.6 MiB of
// ICU's data for the rest of the run, and the live screen's counts are whole.
import assert from 'node:assert/strict';
import {test} from 'node:test';

test('formatCount: whole counts create no Intl.NumberFormat; the first fraction creates one, and only one', async () => {
	const RealNumberFormat = Intl.NumberFormat;
	let created = 0;
	const counting = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
		created++;
		return new RealNumberFormat(...args);
	};
	Intl.NumberFormat = counting as unknown as typeof Intl.NumberFormat;
	try {
		// Imported only now, so whatever the module makes when it loads is counted too.
		const {formatCount} = await import('../../../source/domain/text/format.js');
		assert.equal(formatCount(1_671_950), '1,671,950');
		assert.equal(formatCount(0), '0');
		assert.equal(created, 0);
		assert.equal(formatCount(1234.6), '1,235');
		assert.equal(formatCount(-1234), '-1,234');
		assert.equal(created, 1);
	} finally {
		Intl.NumberFormat = RealNumberFormat;
	}
});
