import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {dateHeaderSeconds} from '../../../source/sources/http/date-header.js';
import {createKubeletDirectSource} from '../../../source/sources/kubelet-direct.js';
import {startFakeKubelet, type FakeKubelet} from '../../helpers/fake-kubelet.js';
import {makeTempDir, type TempDir} from '../../helpers/kubeconfig-files.js';

test('the Date header: IMF-fixdate as Unix seconds; anything else from the network is no date', () => {
	// Date.UTC(2026, 11, 4, 15, 42, 25) / 1000
	assert.equal(dateHeaderSeconds({date: 'Fri, 04 Dec 2026 15:42:25 GMT'}), 1_796_398_945);
	assert.equal(dateHeaderSeconds({}), null);
	assert.equal(dateHeaderSeconds({date: 'yesterday'}), null);
	// Other forms Date.parse would take are not what a Go server writes.
	assert.equal(dateHeaderSeconds({date: '2026-12-04T15:42:25Z'}), null);
	assert.equal(dateHeaderSeconds({date: `Fri, 04 Dec 2026 15:42:25 GMT${' '.repeat(10_000)}x`}), null);
	// The right shape but no such day.
	assert.equal(dateHeaderSeconds({date: 'Fri, 99 Dec 2026 15:42:25 GMT'}), null);
});

let kubelet: FakeKubelet;
let temp: TempDir;

before(async () => {
	temp = makeTempDir();
	kubelet = await startFakeKubelet({metrics: () => '', tokens: {'date-token-0123456789': 'reader'}, allowed: ['reader'], plain: true});
});

after(async () => {
	await kubelet.close();
	temp.remove();
});

test('--kubelet-url: the answer comes with the kubelet Date, for the clock offset', async () => {
	const body = '# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1.7e+09\n';
	kubelet.setAnswer({status: 200, headers: {Date: 'Fri, 04 Dec 2026 15:42:25 GMT'}, body});
	const direct = createKubeletDirectSource({
		url: kubelet.url,
		tokenFile: temp.write('token', 'date-token-0123456789'),
		insecureSkipTlsVerify: false,
		timeoutMs: 5000,
		now: Date.now,
	});
	assert.deepEqual(await direct.fetchMetricsDated!(new AbortController().signal), {text: body, dateSeconds: 1_796_398_945});
	direct.close?.();
});
