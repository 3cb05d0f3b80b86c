// Phase 3: what one scrape costs once its text is in memory: parsePlegSample + feedReducer + figuresAt, on
// payloads of a simulated kubelet padded to a real size, each a little later than the one before.
import {feedReducer, figuresAt, initialFeedState} from '../source/domain/feed.js';
import {parsePlegSample} from '../source/domain/exposition/parse.js';
import {SimulatedKubelet} from '../source/demo/simulated-kubelet.js';
import {median} from './stats.js';

/** medianMs is CPU time (process.cpuUsage: a busy machine's preemption does not count); wall time beside it. */
export type ParseDeriveResult = {payloadBytes: number; runs: number; medianMs: number; p90Ms: number; medianWallMs: number};

/** `count` payloads 1 s apart (one relist each), flattened as text read from a socket is. */
function payloads(bytes: number, count: number, startMs: number): string[] {
	let clock = startMs;
	const kubelet = new SimulatedKubelet({now: () => clock, startedAt: startMs - 20 * 60_000});
	return Array.from({length: count}, () => {
		clock += 1000;
		return Buffer.from(kubelet.paddedMetricsText(bytes)).toString('utf8');
	});
}

export function measureParseDerive(bytes: number, runs: number): ParseDeriveResult {
	const startMs = Date.UTC(2024, 0, 15, 14, 0, 0);
	const texts = payloads(bytes, Math.min(runs, 60), startMs);
	let state = initialFeedState({node: 'bench-node', windowSeconds: 10});
	const once = (index: number) => {
		const at = startMs + (index + 1) * 1000;
		const sample = parsePlegSample(texts[index % texts.length]!);
		state = feedReducer(state, {type: 'scrape', scrape: {at, sample, latencyMs: 5}});
		return figuresAt(state, at);
	};

	// Warm-up: let the JIT compile the hot paths before timing.
	for (let index = 0; index < Math.min(runs, 200); index++) {
		once(index);
	}

	const times: number[] = [];
	const wall: number[] = [];
	for (let index = 0; index < runs; index++) {
		const started = performance.now();
		const cpu = process.cpuUsage();
		once(index);
		const used = process.cpuUsage(cpu);
		wall.push(performance.now() - started);
		times.push((used.user + used.system) / 1000);
	}

	times.sort((a, b) => a - b);
	return {payloadBytes: texts[0]!.length, runs, medianMs: median(times), p90Ms: times[Math.floor(runs * 0.9)]!, medianWallMs: median(wall)};
}
