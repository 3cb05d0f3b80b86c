import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {readMetaLine, readSampleLine} from '../../../source/domain/exposition/sample-line.js';

describe('readSampleLine', () => {
	test('a labelled bucket line with an exponent count', () => {
		assert.deepEqual(
			readSampleLine('kubelet_runtime_operations_duration_seconds_bucket{operation_type="list_podsandbox",le="0.0125"} 2.366937e+06'),
			{
				name: 'kubelet_runtime_operations_duration_seconds_bucket',
				labels: {operation_type: 'list_podsandbox', le: '0.0125'},
				value: 2_366_937,
			},
		);
	});

	test('+Inf as a label value and as the value; NaN; a negative exponent; a timestamp', () => {
		assert.deepEqual(readSampleLine('x_bucket{le="+Inf"} +Inf'), {name: 'x_bucket', labels: {le: '+Inf'}, value: Infinity});
		const nan = readSampleLine('x{quantile="0.5"} NaN');
		assert.ok(typeof nan !== 'string' && Number.isNaN(nan.value));
		assert.deepEqual(readSampleLine('x 1.5e-03 1648119277000'), {name: 'x', labels: {}, value: 0.0015});
	});

	test('escaped label values: \\" \\\\ \\n, and a brace, comma or "} 5" inside the quotes', () => {
		const read = readSampleLine(String.raw`x{a="say \"hi\"",b="C:\\dir",c="two\nlines",d="} 5,{"} 7`);
		assert.deepEqual(read, {name: 'x', labels: {a: 'say "hi"', b: 'C:\\dir', c: 'two\nlines', d: '} 5,{'}, value: 7});
	});

	test('blanks around labels, a trailing comma, an empty label value, an empty label set', () => {
		assert.deepEqual(readSampleLine('x{ a = "1" , b="" , } 2'), {name: 'x', labels: {a: '1', b: ''}, value: 2});
		assert.deepEqual(readSampleLine('x{} 3'), {name: 'x', labels: {}, value: 3});
	});

	test('tabs between tokens, blanks between the name and its labels', () => {
		assert.deepEqual(readSampleLine('x_bucket\t{le="1"}\t2\t1700000000000'), {name: 'x_bucket', labels: {le: '1'}, value: 2});
		assert.deepEqual(readSampleLine('x {a="1"} 2'), {name: 'x', labels: {a: '1'}, value: 2});
		assert.deepEqual(readSampleLine('x\t3'), {name: 'x', labels: {}, value: 3});
	});

	test('an exemplar after the value or the timestamp is ignored', () => {
		assert.deepEqual(readSampleLine('x_bucket{le="0.1"} 5 # {trace_id="abc"} 0.1 1.6e9'), {
			name: 'x_bucket',
			labels: {le: '0.1'},
			value: 5,
		});
		assert.deepEqual(readSampleLine('x 5 1700000000000 # {trace_id="abc"} 0.1'), {name: 'x', labels: {}, value: 5});
		// The kubelet's own CRI shape with an exemplar leaves the fast path and still reads.
		assert.deepEqual(readSampleLine('kubelet_runtime_operations_total{operation_type="list_podsandbox"} 7 # {trace_id="abc"} 1'), {
			name: 'kubelet_runtime_operations_total',
			labels: {operation_type: 'list_podsandbox'},
			value: 7,
		});
	});

	test('malformed lines say why', () => {
		assert.equal(readSampleLine('x{a="1"}'), 'sample has no value');
		assert.equal(readSampleLine('x{a="1"} one'), 'value is not a number');
		assert.equal(readSampleLine('x{a="1} 2'), 'malformed label');
		assert.equal(readSampleLine('x{a=1} 2'), 'malformed label');
		assert.equal(readSampleLine('x{a="1" b="2"} 2'), 'malformed label');
		assert.equal(readSampleLine('x{a="1"}2'), 'malformed sample');
		assert.equal(readSampleLine('x 2 later'), 'malformed sample');
		assert.equal(readSampleLine('9x 2'), 'malformed sample');
		assert.equal(readSampleLine('x 2 # not an exemplar'), 'malformed sample');
		assert.equal(readSampleLine('x 2 3 4'), 'malformed sample');
		assert.equal(readSampleLine('x{a="1",a="2"} 2'), 'label a given twice');
	});
});

describe('readMetaLine', () => {
	test('HELP and TYPE with blanks or tabs between the tokens; other comments are null', () => {
		assert.deepEqual(readMetaLine('# TYPE x histogram'), {keyword: 'TYPE', name: 'x', text: 'histogram'});
		assert.deepEqual(readMetaLine('#\tTYPE\tx\thistogram\t'), {keyword: 'TYPE', name: 'x', text: 'histogram'});
		assert.deepEqual(readMetaLine('# HELP x Some text\twith a tab.'), {keyword: 'HELP', name: 'x', text: 'Some text\twith a tab.'});
		assert.deepEqual(readMetaLine('# HELP x'), {keyword: 'HELP', name: 'x', text: ''});
		assert.equal(readMetaLine('# just a comment'), null);
		assert.equal(readMetaLine('#TYPE x gauge'), null);
		assert.equal(readMetaLine('# TYPE 9x gauge'), 'malformed metric name in TYPE');
	});
});
