// JSON from the cluster checked where it enters: a Node, a NodeList, an EventList page, a pod list page and a
// Status of another shape each throw one error naming the first wrong field; absent and null fields are fine.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import * as v from 'valibot';
import {readStatus} from '../../source/sources/http/classify.js';
import {checked, MalformedJsonError, readJson} from '../../source/sources/json-boundary.js';
import {eventPageFromJson} from '../../source/sources/node-events.js';
import {nodeInfoFromJson, nodeInfoFromObject, nodeInfosFromJson, nodeNamesFromJson} from '../../source/sources/node-info.js';
import {podPageFromJson} from '../../source/sources/pod-count.js';

const malformed = (message: string) => ({name: 'MalformedJsonError', message});

describe('the field named', () => {
	const schema = v.object({items: v.array(v.object({metadata: v.nullish(v.object({name: v.string()}))}))});
	test('array places in brackets, keys with dots; the kind of value received, never the value', () => {
		assert.throws(
			() => checked(schema, {items: [{}, {metadata: {name: 'secret-name'}}, {metadata: {name: ['x']}}]}),
			malformed('items[2].metadata.name: expected a string, got an array'),
		);
		assert.throws(() => checked(schema, {items: {}}), malformed('items: expected an array, got an object'));
		assert.throws(() => checked(schema, {items: [{metadata: {}}]}), malformed('items[0].metadata.name: missing'));
		assert.throws(() => checked(schema, null), malformed('expected an object, got null'));
	});

	test('a body that is not JSON: "not JSON", nothing of it quoted', () => {
		const error = (() => {
			try {
				readJson(schema, '{"items": [secret');
			} catch (caught) {
				return caught;
			}
		})();
		assert.ok(error instanceof MalformedJsonError);
		assert.equal(error.message, 'not JSON');
		assert.equal(error.field, '');
	});
});

describe('a Node', () => {
	test('null and absent fields read as absent', () => {
		const body = JSON.stringify({kind: 'Node', metadata: {name: 'w'}, status: {nodeInfo: null, conditions: null}});
		assert.deepEqual(nodeInfoFromJson(body, 'w'), {name: 'w', kubeletVersion: null, ready: null, containerRuntimeVersion: null});
		assert.deepEqual(nodeInfoFromObject({}, 'fallback'), {
			name: 'fallback',
			kubeletVersion: null,
			ready: null,
			containerRuntimeVersion: null,
		});
	});

	test('another kind, a condition that is not an object, a version that is a number', () => {
		assert.throws(() => nodeInfoFromJson('{"kind":"Status"}', 'w'), malformed('kind: expected "Node", got a string'));
		assert.throws(
			() => nodeInfoFromJson('{"status":{"conditions":[{"type":"Ready"},"x"]}}', 'w'),
			malformed('status.conditions[1]: expected an object, got a string'),
		);
		assert.throws(
			() => nodeInfoFromJson('{"status":{"nodeInfo":{"kubeletVersion":1.28}}}', 'w'),
			malformed('status.nodeInfo.kubeletVersion: expected a string, got a number'),
		);
	});

	test('a NodeList item that is wrong names its place; the names list too', () => {
		const body = JSON.stringify({items: [{metadata: {name: 'a'}}, {metadata: {name: 'b'}, status: {conditions: 3}}]});
		assert.throws(() => nodeInfosFromJson(body), malformed('items[1].status.conditions: expected an array, got a number'));
		assert.throws(
			() => nodeNamesFromJson('{"items":[{"metadata":{"name":false}}]}'),
			malformed('items[0].metadata.name: expected a string, got a boolean'),
		);
		assert.deepEqual(nodeNamesFromJson('{"items":[{"metadata":{"name":"a"}},{"metadata":null}]}'), ['a']);
	});
});

describe('an EventList page, a pod list page', () => {
	test('an Event field of another type is named; events.k8s.io nulls are fine', () => {
		assert.throws(() => eventPageFromJson('{"items":[{"count":"3"}]}'), malformed('items[0].count: expected a number, got a string'));
		assert.throws(
			() => eventPageFromJson('{"items":[],"metadata":{"continue":5}}'),
			malformed('metadata.continue: expected a string, got a number'),
		);
		const page = eventPageFromJson(
			'{"items":[{"reason":"R","lastTimestamp":null,"firstTimestamp":null,"eventTime":"1970-01-01T00:00:42.000000Z","series":null}]}',
		);
		assert.equal(page.events[0]!.lastTimestamp, 42);
	});

	test('pod list: items counted whatever they hold; no items is an error', () => {
		assert.deepEqual(podPageFromJson('{"items":[1,{},null],"metadata":{"continue":"t"}}'), {items: 3, continueToken: 't'});
		assert.throws(() => podPageFromJson('{"kind":"Status"}'), malformed('items: missing'));
	});
});

describe('a Status', () => {
	test('read when its fields have their types; another shape is no Status (the answer is quoted by its first line)', () => {
		assert.deepEqual(readStatus('{"kind":"Status","message":"m","reason":null,"code":403,"details":{"kind":"nodes"}}'), {
			message: 'm',
			reason: null,
			code: 403,
			kind: 'nodes',
		});
		assert.equal(readStatus('{"kind":"Status","message":{"text":"m"}}'), null);
		assert.equal(readStatus('{"kind":"Status","code":"403"}'), null);
	});
});
