import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {jsonReport, textReport} from '../../../source/report/report.js';
import {operationText} from '../../../source/domain/anatomy/anatomy-text.js';
import {churnAnatomy} from '../../helpers/anatomy.js';
import {makeFigures} from '../../helpers/figures.js';

process.env.TZ = 'UTC';

describe('the relist anatomy in the reports', () => {
	test('JSON `cri`: exactly the documented keys, p99 as seconds, list share capped at 1', () => {
		const report = jsonReport(makeFigures({anatomy: churnAnatomy({listShareOfRelist: 1.04})})) as {cri: Record<string, unknown>};
		assert.deepEqual(report.cri, {
			listPodSandbox: {ratePerSecond: 1, windowMeanSeconds: 0.024, windowP99Seconds: 0.07, errors: 0},
			listContainers: {ratePerSecond: 5, windowMeanSeconds: 0.016, windowP99Seconds: 0.07, errors: 0},
			podSandboxStatus: {ratePerSecond: 4, windowMeanSeconds: 0.015, windowP99Seconds: 0.07, errors: 0},
			// The p99 fell in +Inf: the top finite bound (745.0580596923828 s, to the nanosecond), a lower bound.
			containerStatus: {ratePerSecond: 6, windowMeanSeconds: 0.0155, windowP99Seconds: 745.058059692, errors: 3},
			statusCallsPerRelist: 10,
			runningPods: 26,
			runningContainers: {created: 1, exited: 3, running: 31, unknown: 0},
			// 1.04 as computed: a share of the relist cannot pass 1.
			listShareOfRelist: 1,
		});
	});

	test('JSON `cri` without anatomy: the same keys, every figure null', () => {
		const {cri} = jsonReport(makeFigures()) as {cri: Record<string, unknown>};
		const none = {ratePerSecond: null, windowMeanSeconds: null, windowP99Seconds: null, errors: null};
		assert.deepEqual(cri, {
			listPodSandbox: none,
			listContainers: none,
			podSandboxStatus: none,
			containerStatus: none,
			statusCallsPerRelist: null,
			runningPods: null,
			runningContainers: null,
			listShareOfRelist: null,
		});
	});

	test('the text report always has the anatomy section', () => {
		const text = textReport(makeFigures({anatomy: churnAnatomy()}));
		const rows = text.split('\n');
		const row = (label: string) => rows.find((line) => line.startsWith(`${label} `))?.replace(/^\S+(?: \S+)?\s{2,}/, '');
		assert.equal(row('anatomy'), churnAnatomy().reading.text);
		assert.equal(row('ListPodSandbox'), '1.00/s, mean 24ms, p99 70ms, 0 errors');
		assert.equal(row('ContainerStatus'), '6.00/s, mean 15.5ms, p99 ≥ 12m25.058s, 3 errors');
		assert.equal(row('status/relist'), "10 (every caller counted: at most this many are the relist's)");
		assert.equal(row('list share'), '16% of the mean relist');
		assert.equal(row('running'), '26 pods; containers: 31 running, 3 exited, 1 created');
		// 250 ms / 31 = 8.06 ms.
		assert.equal(row('per container'), '8.1ms of mean relist per running container');
		assert.match(textReport(makeFigures()), /^anatomy +no scrape yet$/m);
	});

	test('one error is "1 error"', () => {
		assert.equal(
			operationText({calls: 0, ratePerSecond: 0, windowMeanSeconds: null, windowP99: null, errors: 1}),
			'no call in the window, 1 error',
		);
		assert.equal(
			operationText({calls: 10, ratePerSecond: 1, windowMeanSeconds: 0.0042, windowP99: {seconds: 0.0093, atLeast: false}, errors: 1}),
			'1.00/s, mean 4.2ms, p99 9.3ms, 1 error',
		);
	});
});
