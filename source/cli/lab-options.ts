// `pleg-top lab NODE [--pods 12] [--cycles 1] [--namespace pleg-lab] [--image …] [--dry-run] [--yes]
// [--tolerate-taints] [--hold 10s] [--pending-timeout 2m]`: the lab's own flags are taken out here; every other word
// is the one-node run's (--kubeconfig, --context, --interval, --window, --summary, --plot, --record, --demo, …) and
// goes to parseOptions, so the lab watches the node exactly as `pleg-top NODE` does.
import {labDefaults, type LabSettings} from '../domain/lab/lab-plan.js';
import {parseDuration, parseOptions, UsageError, type Invocation, type NodeMode} from './options.js';
import {isOneOf} from './one-of.js';
import {messageOf} from '../domain/text/thrown.js';

export type LabMode = {kind: 'lab'; settings: LabSettings; watch: NodeMode} | {kind: 'lab-help'};

export const valueFlags = ['pods', 'cycles', 'namespace', 'image', 'hold', 'pending-timeout'] as const;
export const switchFlags = ['dry-run', 'yes', 'tolerate-taints'] as const;
type ValueFlag = (typeof valueFlags)[number];
type SwitchFlag = (typeof switchFlags)[number];

/** The lab's flags out of `argv` (after the word `lab`); the rest as they came. */
function splitWords(argv: readonly string[]): {values: Partial<Record<ValueFlag, string>>; switches: Set<SwitchFlag>; rest: string[]} {
	const values: Partial<Record<ValueFlag, string>> = {};
	const switches = new Set<SwitchFlag>();
	const rest: string[] = [];
	for (let index = 0; index < argv.length; index++) {
		const word = argv[index]!; // in bounds
		const [flag, inline] = word.startsWith('--')
			? [word.slice(2).split('=', 1)[0]!, word.includes('=') ? word.slice(word.indexOf('=') + 1) : undefined] // split gives one at least
			: ['', undefined];
		if (isOneOf(valueFlags, flag)) {
			const value = inline ?? argv[++index];
			if (value === undefined) throw new UsageError(`--${flag} needs a value`);
			values[flag] = value;
		} else if (isOneOf(switchFlags, flag) && inline === undefined) {
			switches.add(flag);
		} else {
			rest.push(word);
		}
	}

	return {values, switches, rest};
}

/** "12" or "0,12,50,100": whole numbers of pods, at most 1000 each. */
export function parseLevels(text: string): number[] {
	const levels = text.split(',').map((part) => part.trim());
	if (levels.some((part) => !/^\d+$/.test(part) || Number(part) > 1000)) {
		throw new UsageError(`--pods takes a number of pods (e.g. 12) or a sweep of levels (e.g. 0,12,50,100), each 0 to 1000, not "${text}"`);
	}

	const numbers = levels.map(Number);
	if (numbers.length === 1 && numbers[0] === 0)
		throw new UsageError('--pods 0 churns nothing: give at least 1 (or a sweep such as 0,12,50)');
	return numbers;
}

function wholeNumber(flag: string, text: string, max: number): number {
	if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max)
		throw new UsageError(`--${flag} must be a whole number from 1 to ${max}, not "${text}"`);
	return Number(text);
}

function durationFlag(flag: string, text: string): number {
	try {
		return parseDuration(text);
	} catch (error) {
		throw new UsageError(`--${flag}: ${messageOf(error)}`);
	}
}

/** A Kubernetes namespace name (RFC 1123 label). */
function namespaceName(text: string): string {
	if (!/^[a-z\d]([-a-z\d]{0,61}[a-z\d])?$/.test(text))
		throw new UsageError(`--namespace must be a DNS label (lower-case letters, digits, -), not "${text}"`);
	return text;
}

export function parseLabOptions(argv: readonly string[], invocation: Invocation = {}): LabMode {
	const {values, switches, rest} = splitWords(argv);
	if (rest.includes('--help') || rest.includes('-h')) return {kind: 'lab-help'};
	// The lab draws its own screen or, without a terminal, says each phase on stderr: never JSON lines or --once.
	if (rest.includes('--once')) throw new UsageError('pleg-top lab runs until its phases are done: drop --once');
	const watch = parseOptions(rest, {...invocation, stdoutIsTty: true});
	if (watch.kind !== 'node' || (watch.backend.kind !== 'api-server' && watch.backend.kind !== 'demo')) {
		throw new UsageError('pleg-top lab takes one node, watched through the API server (pleg-top lab NODE), or --demo');
	}

	const node = watch.backend.kind === 'api-server' ? watch.backend.node : 'demo-node';
	const settings: LabSettings = {
		node,
		levels: parseLevels(values.pods ?? String(labDefaults.pods)),
		cycles: values.cycles === undefined ? labDefaults.cycles : wholeNumber('cycles', values.cycles, 100),
		namespace: namespaceName(values.namespace ?? labDefaults.namespace),
		image: values.image ?? labDefaults.image,
		dryRun: switches.has('dry-run'),
		yes: switches.has('yes') || watch.backend.kind === 'demo',
		...(watch.backend.kind === 'demo' ? {simulated: true} : {}),
		tolerateTaints: switches.has('tolerate-taints'),
		pendingTimeoutMs:
			values['pending-timeout'] === undefined ? labDefaults.pendingTimeoutMs : durationFlag('pending-timeout', values['pending-timeout']),
		holdSeconds: values.hold === undefined ? watch.windowSeconds : durationFlag('hold', values.hold) / 1000,
	};
	if (settings.cycles > 1 && settings.levels.length > 1)
		throw new UsageError('--cycles repeats the churn of one level; a sweep (--pods 0,12,50) runs once');
	if (settings.holdSeconds < watch.windowSeconds) {
		throw new UsageError(
			`--hold (${settings.holdSeconds}s) must be at least one --window (${watch.windowSeconds}s): each phase is measured over a full window`,
		);
	}

	return {kind: 'lab', settings, watch};
}

export const labHelp = `pleg-top lab: churn pause pods on one node and measure what the PLEG relist pays per pod

Usage:
  pleg-top lab NODE [--pods 12] [--cycles 1] [--namespace pleg-lab] [--image registry.k8s.io/pause:3.10]
                    [--dry-run] [--yes] [--tolerate-taints] [--hold DURATION] [--pending-timeout 2m]
  pleg-top lab --demo

It shows the plan (a namespace and a Deployment of pause pods pinned to NODE), asks y/N, checks its rights
(SelfSubjectAccessReview), then runs idle, up 0→N, hold, down N→0, hold, up, hold (--cycles repeats) on the live
screen, each phase a named mark, and writes down each phase's mean, p99, rate and cost per running container.
--pods 0,12,50,100 sweeps levels instead and fits the relist cost per pod. The namespace is deleted at the end,
on q, Ctrl-C, SIGTERM and SIGHUP.

Lab flags:
  --pods N | L1,L2,…    pause pods (default 12), or a sweep of levels held one --hold each
  --cycles N            repeats of up, hold, down, hold (default 1)
  --namespace NAME      the namespace it creates and deletes (default pleg-lab)
  --image IMAGE         the pause image (default registry.k8s.io/pause:3.10)
  --dry-run             print the manifests as YAML and the kubectl lines; create nothing
  --yes                 no question before creating (needed when not on a terminal)
  --tolerate-taints     tolerate exactly the node's NoSchedule/NoExecute taints
  --hold DURATION       length of idle and hold phases (default: one --window)
  --pending-timeout D   how long pods may stay not Running before the lab gives up (default 2m)

Every other flag is the one-node run's: --kubeconfig, --context, --interval, --window, --summary, --plot, --record.
`;
