// Fixed-size histogram accumulator, the way client_golang keeps one: a count per bucket plus sum and count.
// Memory stays constant however many observations arrive.

/** prometheus.DefBuckets, used by kubelet_pleg_relist_{duration,interval}_seconds. Seconds. */
export const DEF_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** prometheus.ExponentialBuckets(start, factor, count), computed by repeated multiplication as Go does. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
	const bounds: number[] = [];
	let bound = start;
	for (let index = 0; index < count; index++) {
		bounds.push(bound);
		bound *= factor;
	}

	return bounds;
}

/** kubelet_runtime_operations_duration_seconds: ExponentialBuckets(.005, 2.5, 14), .005 s .. 745 s. */
export const RUNTIME_OPERATION_BUCKETS: readonly number[] = exponentialBuckets(0.005, 2.5, 14);

/** A read-only view for rendering: `counts` are per bucket (not cumulative), the last entry is the +Inf overflow. */
export type HistogramView = {
	readonly bounds: readonly number[];
	readonly counts: readonly number[];
	readonly sum: number;
	readonly count: number;
};

export class FixedHistogram implements HistogramView {
	readonly bounds: readonly number[];
	#counts: number[];
	#sum = 0;
	#count = 0;

	constructor(bounds: readonly number[]) {
		this.bounds = bounds;
		this.#counts = Array.from({length: bounds.length + 1}, () => 0);
	}

	get counts(): readonly number[] {
		return this.#counts;
	}

	get sum(): number {
		return this.#sum;
	}

	get count(): number {
		return this.#count;
	}

	/** Records one observation in seconds; `le` is inclusive, as in client_golang. */
	observe(seconds: number): void {
		let index = 0;
		// Below: in bounds.
		while (index < this.bounds.length && seconds > this.bounds[index]!) {
			index++;
		}

		this.#counts[index]!++; // in bounds
		this.#sum += seconds;
		this.#count++;
	}

	reset(): void {
		this.#counts.fill(0);
		this.#sum = 0;
		this.#count = 0;
	}
}
