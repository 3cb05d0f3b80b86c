// Node names cut to a column without losing what tells them apart, cases worked out by hand: what a fleet's names
// share, and where the "…" goes for GKE, AKS and EKS names.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {noSharedParts, sharedParts, shortName} from '../../source/screen/node-names.js';

const gke = (end: string) => `gke-prod-default-pool-3f6a0b2c-${end}`;
const aks = (end: string) => `aks-nodepool1-12345678-vmss${end}`;
const eks = (host: string) => `ip-10-0-${host}.us-west-2.compute.internal`;

describe('what the names share', () => {
	test('one GKE pool: the 31 characters up to the last 4; nothing at the end', () => {
		assert.deepEqual(sharedParts([gke('x7kq'), gke('m2n4'), gke('p9rt')]), {prefix: 31, suffix: 0});
	});

	test('EKS: "ip-10-0-" (8) and ".us-west-2.compute.internal" (27)', () => {
		assert.deepEqual(sharedParts([eks('1-23'), eks('1-45'), eks('2-7')]), {prefix: 8, suffix: 27});
	});

	test('never overlapping in the shortest name: "ab-x-ab" and "ab-ab" share "ab-" and, of "-ab", the 2 left', () => {
		assert.deepEqual(sharedParts(['ab-x-ab', 'ab-ab']), {prefix: 3, suffix: 2});
		assert.deepEqual(sharedParts(['node-1', 'node-10']), {prefix: 6, suffix: 0});
	});

	test('one name or none shares nothing: there is no fleet to compare with', () => {
		assert.deepEqual(sharedParts([gke('x7kq')]), noSharedParts);
		assert.deepEqual(sharedParts([]), noSharedParts);
	});
});

describe('a name cut to a width', () => {
	const pool = {prefix: 31, suffix: 0};

	test('GKE, 35 characters: in 20, 9 + … + 10 (the cut, 16 from the 9th, inside the shared 31)', () => {
		assert.equal(shortName(gke('x7kq'), 20, pool), 'gke-prod-…a0b2c-x7kq');
	});

	test('GKE in 29: 14 + … + 14; in 28: 13 + … + 14', () => {
		assert.equal(shortName(gke('x7kq'), 29, pool), 'gke-prod-defau…-3f6a0b2c-x7kq');
		assert.equal(shortName(gke('x7kq'), 28, pool), 'gke-prod-defa…-3f6a0b2c-x7kq');
	});

	test('AKS, 33 characters, 32 shared: 9 + … + 10 in 20, 14 + … + 14 in 29', () => {
		const shared = sharedParts([aks('000000'), aks('000001'), aks('00000a')]);
		assert.deepEqual(shared, {prefix: 32, suffix: 0});
		assert.equal(shortName(aks('000001'), 20, shared), 'aks-nodep…vmss000001');
		assert.equal(shortName(aks('000001'), 29, shared), 'aks-nodepool1-…678-vmss000001');
	});

	test('EKS, 39 characters in 20: the middle cut (from 9) would take "-23"; moved into the shared end (from 12)', () => {
		const shared = {prefix: 8, suffix: 27};
		assert.equal(shortName(eks('1-23'), 20, shared), 'ip-10-0-1-23…nternal');
		assert.equal(shortName(eks('1-23'), 20), 'ip-10-0-1…e.internal');
	});

	test('a cut longer than the shared part: that part goes whole, then the rest is cut in its middle', () => {
		// Two pools share "gke-prod-" (9): 16 to cut does not fit in it. "…" for it, then 26 in 19: 9 + … + 9, the pool
		// kept where a middle cut of the whole name ("gke-prod-…a0b2c-x7kq") left every row the same at the front.
		assert.equal(shortName(gke('x7kq'), 20, {prefix: 9, suffix: 0}), '…default-p…0b2c-x7kq');
		// GKE pools of one cluster in europe-west1 share 22: 48 characters in 20, "highmem" and "gpu" stay.
		const regional = (pool: string) => `gke-prod-europe-west1-${pool}`;
		assert.equal(shortName(regional('highmem-pool-8b1d4e77-q2w3'), 20, {prefix: 22, suffix: 0}), '…highmem-p…4e77-q2w3');
		assert.equal(shortName(regional('gpu-pool-c04e91aa-7hrn'), 20, {prefix: 22, suffix: 0}), '…gpu-pool-…91aa-7hrn');
		// The rest fits: one "…".
		assert.equal(shortName(regional('gpu-pool-c04e91aa-7hrn'), 23, {prefix: 22, suffix: 0}), '…gpu-pool-c04e91aa-7hrn');
		// A shared end, the same way: EKS in 12 ("ip-10-0-1-23" is 12; 11 + …).
		assert.equal(shortName(eks('1-23'), 12, {prefix: 0, suffix: 27}), 'ip-10…-1-23…');
	});

	test('nothing shared (or only a few characters): the middle cut, both ends kept', () => {
		assert.equal(shortName('abcdefghij', 5), 'ab…ij');
		assert.equal(shortName('abcdefghij', 6), 'ab…hij');
		assert.equal(shortName(gke('x7kq'), 20, {prefix: 3, suffix: 0}), 'gke-prod-…a0b2c-x7kq');
		// "worker-" shared with a 71-character rest: the rest would lose most of itself anyway; both ends kept.
		assert.equal(shortName(`worker-${'x'.repeat(60)}-the-end-1`, 20, {prefix: 7, suffix: 0}), 'worker-xx…-the-end-1');
	});

	test('a name that fits stays whole; 1 column is "…", 0 is nothing', () => {
		assert.equal(shortName('worker-1', 8), 'worker-1');
		assert.equal(shortName('worker-1', 1), '…');
		assert.equal(shortName('worker-1', 0), '');
	});

	test('a name of characters wider than one UTF-16 unit is cut in the middle whatever is shared', () => {
		assert.equal(shortName('𝔞𝔟𝔠𝔡𝔢𝔣', 4, {prefix: 4, suffix: 0}), '𝔞…𝔢𝔣');
	});
});
