// One node over its /metrics text: the backend's source (node-sources.ts), seen through the lab recorder
// (--record, the write-down), then the engine of that one node.
import type {MetricsSource, NodeInfo} from '../../domain/types.js';
import {startNodeEngine} from '../../engine/node-engine.js';
import {checkQuitFiles, createLabRecorder, type LabRecorder} from '../../lab/recorder.js';
import {toFailure} from '../../sources/to-failure.js';
import type {NodeMode} from '../mode.js';
import {sourcingFor, type NodeSourcing, type TextBackend} from './node-sources.js';
import type {Plan} from './types.js';
import {systemNow} from '../../engine/engine.js';
import {historyFrom} from '../history-from.js';

export function nodePlan(mode: NodeMode, backend: TextBackend, env: NodeJS.ProcessEnv): Plan {
	const sourcing = sourcingFor(mode, backend, env);
	// A replay windows as the recording did, unless --window was typed.
	const windowed = sourcing.windowSeconds === undefined ? mode : {...mode, windowSeconds: sourcing.windowSeconds};
	const recorder = recorderOf(sourcing.source, windowed);
	return recordedNodePlan(windowed, sourcing, recorder);
}

/** The lab recorder over `source`; a --record file that cannot be opened closes the source before it is said. */
function recorderOf(source: MetricsSource, mode: NodeMode): LabRecorder {
	try {
		checkQuitFiles({summary: mode.lab.summary, plot: mode.lab.plot});
		return createLabRecorder({source, windowSeconds: mode.windowSeconds, file: mode.lab.record, intervalMs: mode.intervalMs});
	} catch (error) {
		source.close?.();
		throw error;
	}
}

/** The plan over the recorder's view of the source: the Node object is the first request, and the engine starts with it. */
function recordedNodePlan(mode: NodeMode, {source, pace, header, demo, replay}: NodeSourcing, recorder: LabRecorder): Plan {
	const observed = recorder.source;
	let contacted: NodeInfo | null = null;
	// --history-from: the node's past read beside the first request, waited for a moment (history-from.ts).
	const history = historyFrom(mode, systemNow);
	return {
		async contact() {
			// Started here, waited for below (settled); the engine picks the same promise up at start.
			void history.begin();
			if (!observed.fetchNode) return null;
			try {
				contacted = await observed.fetchNode(new AbortController().signal);
				return null;
			} catch (error) {
				return toFailure(error, observed);
			} finally {
				await history.settled();
			}
		},
		start: (purpose) =>
			startNodeEngine({
				source: observed,
				windowSeconds: mode.windowSeconds,
				node: contacted,
				onPayload: recorder.payload,
				onMark: recorder.mark,
				...(purpose === 'watch' ? {prehistory: history.begin()} : {}),
				...pace(purpose),
			}),
		onceReads: 2,
		notes: source.notes ?? [],
		demo,
		replay,
		recorder,
		header,
		close() {
			history.cancel();
			recorder.close();
			source.close?.();
		},
	};
}
