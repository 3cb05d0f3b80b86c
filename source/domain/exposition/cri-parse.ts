// The labelled CRI families (names.ts criFamilies) -> CriSample. parse.ts hands over the sample lines it kept for
// them, read by sample-line.ts; this groups them by operation_type itself, because parse-prometheus-text-format
// would fold every operation's histogram into the last one without a word.
import type {Bucket, CriOperation, CriSample, Histogram, RelistOperations, Summary} from '../types.js';
import {criFamilies, dockerOperationTypes, relistOperationTypes, type CriFamilyKey} from './names.js';
import type {SampleLine} from './sample-line.js';
import {byUpperBound} from '../histogram/quantile.js';

type Part = 'bucket' | 'sum' | 'count' | 'value';
/** What a CRI sample name holds, found once per line by criRoleOf and handed on with the line. */
export type CriRole = {family: CriFamilyKey; part: Part; docker: boolean};
type Role = CriRole;

/** A CRI sample line as read, with its role. */
export type CriLine = {role: CriRole; sample: SampleLine};

const histogramFamilies: ReadonlySet<CriFamilyKey> = new Set(['duration', 'dockerDuration']);
const summaryFamilies: ReadonlySet<CriFamilyKey> = new Set(['legacyLatency', 'dockerLegacyLatency']);
const unlabelledFamilies: ReadonlySet<CriFamilyKey> = new Set([
	'runningPods',
	'legacyRunningPods',
	'runningContainers',
	'legacyRunningContainers',
]);

/** Every sample name of the CRI families and what it holds. */
const roles: ReadonlyMap<string, Role> = new Map(
	// Below: keys of the literal.
	(Object.entries(criFamilies) as Array<[CriFamilyKey, string]>).flatMap(([family, name]) => {
		const docker = family.startsWith('docker');
		const role = (part: Part): Role => ({family, part, docker});
		if (histogramFamilies.has(family)) {
			return [
				[`${name}_bucket`, role('bucket')],
				[`${name}_sum`, role('sum')],
				[`${name}_count`, role('count')],
			] as const;
		}

		if (summaryFamilies.has(family)) {
			return [
				[name, role('value')],
				[`${name}_sum`, role('sum')],
				[`${name}_count`, role('count')],
			] as const;
		}

		return [[name, role('value')]] as const;
	}),
);

const quoted = (ops: object) => new Set(Object.keys(ops).map((op) => `${op}"`));
/** The operation_type values read, each with its closing quote (as wantedOperation returns them). */
const relistOps: ReadonlySet<string> = quoted(relistOperationTypes);
const dockerOps: ReadonlySet<string> = quoted(dockerOperationTypes);
const operationLabel = 'operation_type="';

/**
 * The role of the sample line at text[start, end) when it belongs to a CRI family and, for the per-operation
 * ones, to an operation a relist makes; undefined for any other line. Called on lines starting "kubelet_r" or "kubelet_d" only (~500 in the 1.21 payload,
 * ~100 of them wanted), so the operation is checked first and nothing is sliced for a line that is dropped.
 */
export function criRoleOf(text: string, start: number, end: number): CriRole | undefined {
	const brace = text.indexOf('{', start);
	if (brace === -1 || brace > end) {
		let nameEnd = start;
		while (nameEnd < end && text.charCodeAt(nameEnd) !== 0x20 && text.charCodeAt(nameEnd) !== 0x09) {
			nameEnd++;
		}

		return unlabelledRole(text.slice(start, nameEnd));
	}

	// The kubelet writes operation_type first; another writer may not, so search the line then.
	const label = text.startsWith(operationLabel, brace + 1) ? brace + 1 : text.indexOf(operationLabel, brace);
	if (label === -1 || label >= end) {
		return unlabelledRole(text.slice(start, brace).trimEnd());
	}

	const op = wantedOperation(text, label + operationLabel.length);
	// trimEnd: blanks may stand between the name and its labels.
	const role = op === undefined ? undefined : roles.get(text.slice(start, brace).trimEnd());
	return op !== undefined && role !== undefined && (role.docker ? dockerOps : relistOps).has(op) ? role : undefined;
}

function unlabelledRole(name: string): CriRole | undefined {
	const role = roles.get(name);
	return role && unlabelledFamilies.has(role.family) ? role : undefined;
}

/** The operation_type value at `at` when it is one pleg-top reads, without slicing the others. */
function wantedOperation(text: string, at: number): string | undefined {
	const first = text.charCodeAt(at);
	const candidates = first === 0x6c ? listOps : first === 0x70 || first === 0x63 || first === 0x69 ? statusOps : noOps;
	return candidates.find((op) => text.startsWith(op, at));
}

/** Operation values with their closing quote, by first letter: l(ist_), p(odsandbox_), c(ontainer_), i(nspect_). */
const listOps = ['list_podsandbox"', 'list_containers"'];
const statusOps = ['podsandbox_status"', 'container_status"', 'inspect_container"'];
const noOps: string[] = [];

/** One operation's series while the lines are read; sums over any other labels (sum by (operation_type)). */
type Accumulator = {
	buckets: Map<number, number>;
	histogram: {sum: number; count: number; sumSeen: boolean; countSeen: boolean};
	quantiles: Map<number, number>;
	summary: {sum: number; count: number; sumSeen: boolean; countSeen: boolean};
	counters: Partial<Record<CriFamilyKey, number>>;
};

function accumulator(): Accumulator {
	return {
		buckets: new Map(),
		histogram: {sum: 0, count: 0, sumSeen: false, countSeen: false},
		quantiles: new Map(),
		summary: {sum: 0, count: 0, sumSeen: false, countSeen: false},
		counters: {},
	};
}

/** The CriSample of the lines kept by criRoleOf; null when there are none. */
export function criSampleOf(lines: CriLine[]): CriSample | null {
	if (lines.length === 0) {
		return null;
	}

	const runtime = new Map<string, Accumulator>();
	const docker = new Map<string, Accumulator>();
	const gauges: Partial<Record<CriFamilyKey, number>> = {};
	const containers = {current: new Map<string, number>(), legacy: new Map<string, number>()};
	for (const {role, sample: line} of lines) {
		if (role.family === 'runningContainers' || role.family === 'legacyRunningContainers') {
			// Label-less before 1.17: the running containers.
			const state = line.labels['container_state'] ?? 'running';
			const byState = role.family === 'runningContainers' ? containers.current : containers.legacy;
			byState.set(state, (byState.get(state) ?? 0) + line.value);
		} else if (unlabelledFamilies.has(role.family)) {
			gauges[role.family] = (gauges[role.family] ?? 0) + line.value;
		} else {
			const op = line.labels['operation_type'] ?? '';
			const ops = role.docker ? docker : runtime;
			const found = ops.get(op) ?? accumulator();
			ops.set(op, found);
			add(found, role, line);
		}
	}

	const byState = containers.current.size > 0 ? containers.current : containers.legacy;
	return {
		operations: relistOperations(runtime),
		runningPods: gauges.runningPods ?? gauges.legacyRunningPods ?? null,
		runningContainers: byState.size > 0 ? Object.fromEntries([...byState].sort(byStateName)) : null,
		docker:
			docker.size > 0
				? {listContainers: operationOf(docker.get('list_containers')), inspectContainer: operationOf(docker.get('inspect_container'))}
				: null,
	};
}

function add(found: Accumulator, role: Role, line: SampleLine): void {
	const {value} = line;
	if (histogramFamilies.has(role.family)) {
		if (role.part === 'bucket') {
			const le = Number(line.labels['le'] === '+Inf' ? Infinity : line.labels['le']);
			if (!Number.isNaN(le)) {
				found.buckets.set(le, (found.buckets.get(le) ?? 0) + value);
			}
		} else {
			addTotal(found.histogram, role.part, value);
		}
	} else if (summaryFamilies.has(role.family)) {
		if (role.part === 'value') {
			const q = Number(line.labels['quantile']);
			if (!Number.isNaN(q)) {
				found.quantiles.set(q, value);
			}
		} else {
			addTotal(found.summary, role.part, value);
		}
	} else {
		found.counters[role.family] = (found.counters[role.family] ?? 0) + value;
	}
}

function addTotal(totals: Accumulator['histogram'], part: Part, value: number): void {
	if (part === 'sum') {
		totals.sum += value;
		totals.sumSeen = true;
	} else if (part === 'count') {
		totals.count += value;
		totals.countSeen = true;
	}
}

function relistOperations(runtime: Map<string, Accumulator>): RelistOperations<CriOperation | null> {
	const op = (type: keyof typeof relistOperationTypes) => operationOf(runtime.get(type));
	return {
		listPodSandbox: op('list_podsandbox'),
		listContainers: op('list_containers'),
		podSandboxStatus: op('podsandbox_status'),
		containerStatus: op('container_status'),
	};
}

function operationOf(found: Accumulator | undefined): CriOperation | null {
	if (!found) {
		return null;
	}

	const {counters} = found;
	return {
		duration: histogramOf(found),
		legacyLatency: summaryOf(found),
		total: counters.total ?? counters.dockerTotal ?? counters.legacyTotal ?? counters.dockerLegacyTotal ?? null,
		// A CounterVec child appears at the first error: absent = none since the kubelet started (derive reads it as 0).
		errors: counters.errors ?? counters.dockerErrors ?? counters.legacyErrors ?? counters.dockerLegacyErrors ?? null,
	};
}

function histogramOf({buckets, histogram}: Accumulator): Histogram | null {
	if (buckets.size === 0 || !histogram.sumSeen || !histogram.countSeen) {
		return null;
	}

	const sorted: Bucket[] = [];
	for (const [le, count] of buckets) {
		sorted.push({le, count});
	}

	return {buckets: sorted.sort(byUpperBound), sum: histogram.sum, count: histogram.count};
}

/** The µs summary in seconds; a NaN quantile (no observation in the kubelet's decay window) is left out. */
function summaryOf({quantiles, summary}: Accumulator): Summary | null {
	if (!summary.sumSeen || !summary.countSeen) {
		return null;
	}

	return {
		quantiles: [...quantiles]
			.filter(([, value]) => !Number.isNaN(value))
			.map(([q, value]) => ({q, seconds: value / 1e6}))
			.sort((a, b) => a.q - b.q),
		sum: summary.sum / 1e6,
		count: summary.count,
	};
}

/**
 * By code unit, not localeCompare: the states are the kubelet's lowercase words, and localeCompare, run every
 * scrape, makes ICU map its collation data, resident for the whole run.
 */
function byStateName([a]: [string, number], [b]: [string, number]): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
