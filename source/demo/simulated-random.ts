// A small seeded PRNG for the simulated kubelet: the same seed gives the same relists, so tests can pin numbers.

export type Random = {
	/** Uniform in [0, 1). */
	next(): number;
	/** Uniform in [lo, hi). */
	between(lo: number, hi: number): number;
	/** An integer in [lo, hi], both ends included. */
	integer(lo: number, hi: number): number;
	/** True with probability p. */
	chance(p: number): boolean;
};

/** mulberry32: 32-bit state, good enough spread for a simulation, and fast. */
export function createRandom(seed: number): Random {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d_2b_79_f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};

	return {
		next,
		between: (lo, hi) => lo + (hi - lo) * next(),
		integer: (lo, hi) => lo + Math.floor((hi - lo + 1) * next()),
		chance: (p) => next() < p,
	};
}
