// `pleg-top --help`: every flag with its default, every key, and the examples people reach for. `program` is the
// name it was called by ("kubectl pleg-top" when run as the kubectl plugin), so the lines can be pasted as shown.
import {keyGroups} from '../domain/definitions.js';
import {durationLimits} from './options.js';

/** Every key, one per line, grouped by where it works (the same data as `?` and the README). */
function keyLines(): string {
	const groups = keyGroups();
	const width = Math.max(...groups.flatMap((group) => group.bindings.map((binding) => binding.keys.join(' / ').length)));
	return groups
		.map((group) =>
			[`Keys · ${group.title}`, ...group.bindings.map((binding) => `  ${binding.keys.join(' / ').padEnd(width)}  ${binding.action}`)].join(
				'\n',
			),
		)
		.join('\n\n');
}

const limit = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 60_000}m`);

/** The usage lines, descriptions aligned. */
function usageLines(p: string): string {
	const lines: Array<[string, string]> = [
		[`${p} NODE [options]`, 'live screen (tmux-friendly); --node NODE works too'],
		[`${p} NODE --once [-o json]`, 'two scrapes one window apart, a report, an exit code'],
		[`${p} --demo`, 'the same screen on an embedded simulated kubelet'],
		[p, 'every node of the cluster, worst first (the overview)'],
		[`${p} lab NODE [--pods 12]`, 'churn pause pods on the node and measure each phase (lab --help)'],
		...(p === 'pleg-top'
			? ([
					['kubectl pleg-top NODE', 'as a kubectl plugin (bin kubectl-pleg_top)'],
					['pleg-top completion bash|zsh|fish', 'a completion script: flags, their values, node names'],
				] satisfies Array<[string, string]>)
			: []),
	];
	const width = Math.max(...lines.map(([usage]) => usage.length));
	return lines.map(([usage, what]) => `  ${usage.padEnd(width)}   ${what}`).join('\n');
}

/** Every flag with its default and its bounds, descriptions aligned. */
function optionLines(): string {
	return `  --node NODE          node to watch, also given as the first word (kubectl get nodes lists them)
  --kubeconfig FILE    only this kubeconfig file (default: every file in $KUBECONFIG, else ~/.kube/config)
  --context NAME       kubeconfig context (default: current-context)
  --interval DUR       time from the end of one request to the start of the next (default 1s;
                       at least 100ms, at most ${limit(durationLimits.interval)})
  --timeout DUR        per-request timeout (default 10s; at most ${limit(durationLimits.timeout)}); also bounds
                       a kubeconfig exec credential plugin (at most 30s)
  --max-body-size N    the most read from one answer, once gunzipped (default 64Mi; Ki, Mi, Gi;
                       at most 256Mi): past it the read fails instead of filling memory
  --window DUR         window for means, quantiles and rates (default 10s; at least 2 × --interval,
                       at most ${limit(durationLimits.window)}); with --once the time between its two scrapes
  --once               scrape, wait one --window, scrape again, print a report and exit
  -o, --output FMT     text or json, for --once (default text)
  --fail-on BAND       with --once, exit 1 from this band on: unhealthy, critical or warn
                       (default unhealthy: the kubelet's own rule)
  --raw                start on the raw view (w): the kubelet_pleg_* lines of the last scrape;
                       with --once print them instead of the report (-o json: raw, rawOmitted)
  --demo               watch an embedded simulated kubelet (keys: c churn, s stall, r recover,
                       x kubelet restart, l slow runtime)
  --demo-speed N       simulated seconds per real second in the demo (default 1; 60 shows a stall
                       crossing the 3-minute threshold in 3 s)
  --no-color           no colours (also when NO_COLOR is set); meaning is always in symbols and words
  --no-bell            no terminal bell when the node turns unhealthy or unknown
  --theme dark|light   colours for a dark or a light background (default: the terminal's COLORFGBG, else dark)
  --quiet              no write-down on stderr when the live screen quits
  --record FILE        append one JSON line per scrape to FILE (with --once: its two scrapes)
  --replay FILE        show a recording made with --record instead of a live node
  --speed N            replay speed, recorded seconds per real second (default 1)
  --summary FILE       on quit, write the session's write-down to FILE as Markdown
  --plot FILE.svg      on quit (or from --replay), write the history as an SVG plot
  --kubelet-url URL    scrape a kubelet directly, e.g. https://10.0.0.5:10250 (needs get on nodes/metrics)
  --prometheus URL     read the figures from a Prometheus-compatible query API
  --job NAME           with --prometheus: the scrape job whose kubelet series are read
                       (default: the one with most; two jobs' series are never summed)
  --history-from URL   at start, fill the chart and the window with the node's last 15 minutes
                       from this Prometheus (with --prometheus: that one)
  --token-file FILE    bearer token file for --kubelet-url / --prometheus / --history-from
  --kubelet-ca FILE    CA bundle for --kubelet-url / --prometheus / --history-from
  --insecure-skip-tls-verify
                       do not verify the server certificate of --kubelet-url / --prometheus / --history-from
  --max-inflight N     overview (no node): at most N node requests at once (default 8)
  --max-rps N          overview: at most N requests per second in total (default 20)
  -l, --selector SEL   overview: only the nodes with these labels, as kubectl's (pool=gpu,zone!=a)
  -h, --help           this help
  -V, --version        the version`;
}

export function helpText(version: string, program = 'pleg-top'): string {
	const p = program;
	return `${p} ${version} — live view of the kubelet's PLEG (Pod Lifecycle Event Generator) for one node

Usage
${usageLines(p)}

Reads GET /api/v1/nodes/NODE/proxy/metrics through the API server (RBAC: get on nodes/proxy,
and get on nodes for the Ready condition).

Options
${optionLines()}

Durations are written 100ms, 2s, 1m or 1m30s.

${keyLines()}

When stdout is not a terminal (and no --once), one JSON line is written per scrape.
On quit the live screen writes what it saw (the write-down) to stderr; --quiet leaves it out.

Exit codes (--once)
  0 PLEG healthy   1 PLEG unhealthy (the kubelet's Healthy() rule; or the --fail-on band)
  2 usage or kubeconfig error
  3 metrics could not be read (network, TLS, authentication, RBAC, node not found, unparsable)

Examples
  # in a tmux split beside the workload (-e: the pane gets the tmux server's environment, not this shell's)
  tmux split-window -h -e KUBECONFIG="$KUBECONFIG" '${p} worker-1; read x'
  # in a script or a cron job
  ${p} worker-1 --once -o json | jq '.relist.windowMeanSeconds'
  ${p} worker-1 --once --window 30s || echo "PLEG trouble on worker-1 (exit $?)"
  # the churn exercise: press b while idle, then scale a deployment of 12 pause pods 12 -> 0 -> 12
  ${p} worker-1 --window 30s
  # see a stall cross the threshold within seconds
  ${p} --demo --demo-speed 60
`;
}
