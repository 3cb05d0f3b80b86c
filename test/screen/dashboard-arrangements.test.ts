// The layout sizes the Events pane for up to five counts before it builds the one it shows: the pane's own count of
// its rows must be the rows it builds, for every count, width, refusal and list.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {EventsFigures, NodeEventAt} from '../../source/domain/types.js';
import {eventsPaneLines, eventsPaneRows} from '../../source/screen/panes/events-pane.js';
import {testNow} from '../helpers/figures.js';

process.env.TZ = 'UTC';

function event(reason: string, ageSeconds: number, message = `Node demo-node status is now: ${reason}`): NodeEventAt {
	return {type: 'Normal', reason, message, count: 1, lastTimestamp: testNow / 1000 - ageSeconds, source: 'kubelet', ageSeconds};
}

const items = [
	event('NodeNotReady', 30),
	event('ContainerGCFailed', 75, 'rpc error: code = DeadlineExceeded desc = context deadline exceeded'),
	event('NodeReady', 1500),
	event('NodeHasSufficientMemory', 1600, ''),
];
const refusal: EventsFigures['error'] = {
	kind: 'forbidden',
	summary: 'context "ctx" (user "u") is not allowed to list events in namespace "default"',
	details: [
		'needed: list on events in namespace default (Role rule in namespace default: apiGroups [""], resources ["events"], verbs ["list"])',
	],
};

const cases: Array<[string, EventsFigures | null]> = [
	['not read', null],
	['none', {items: [], error: null}],
	['refused', {items: [], error: refusal}],
	['listed', {items, error: null}],
	['listed, then refused', {items, error: refusal}],
];

describe('eventsPaneRows: the rows eventsPaneLines builds, counted without building them', () => {
	for (const [name, events] of cases) {
		test(name, () => {
			for (const width of [0, 1, 8, 40, 80, 120]) {
				for (const maxEvents of [0, 1, 2, 3, 4, 5, 9]) {
					assert.equal(
						eventsPaneRows(events, width, maxEvents),
						eventsPaneLines({events, width, maxEvents}).length,
						`${width} columns, at most ${maxEvents}`,
					);
				}
			}
		});
	}
});
