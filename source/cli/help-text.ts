// `pleg-top --help`: every flag with its default, and the examples people reach for.
export function helpText(version: string): string {
	return `pleg-top ${version} — live view of the kubelet's PLEG (Pod Lifecycle Event Generator) for one node

Usage
  pleg-top --node NODE [options]          live screen (tmux-friendly)
  pleg-top --node NODE --once [-o json]   two scrapes one window apart, a report, an exit code
  pleg-top --demo                         the same screen on an embedded simulated kubelet
  pleg-top                                every node of the cluster, worst first (the overview)
  kubectl pleg-top --node NODE            as a kubectl plugin (bin kubectl-pleg_top)

Reads GET /api/v1/nodes/NODE/proxy/metrics through the API server (RBAC: get on nodes/proxy,
and get on nodes for the Ready condition).

Options
  --node NODE          node to watch (kubectl get nodes lists them)
  --kubeconfig FILE    only this kubeconfig file (default: every file in $KUBECONFIG, else ~/.kube/config)
  --context NAME       kubeconfig context (default: current-context)
  --interval DUR       time from the end of one request to the start of the next (default 1s)
  --timeout DUR        per-request timeout (default 10s)
  --window DUR         window for means, quantiles and rates (default 10s)
  --once               scrape, wait one --window, scrape again, print a report and exit
  -o, --output FMT     text or json, for --once (default text)
  --demo               watch an embedded simulated kubelet (keys: c churn, s stall, r recover,
                       x kubelet restart, w slow runtime)
  --demo-speed N       simulated seconds per real second in the demo (default 1; 60 shows a stall
                       crossing the 3-minute threshold in 3 s)
  --no-color           no colours (also when NO_COLOR is set); meaning is always in symbols and words
  --record FILE        append one JSON line per scrape to FILE
  --replay FILE        show a recording made with --record instead of a live node
  --speed N            replay speed, recorded seconds per real second (default 1)
  --summary FILE       on quit, write the session's write-down to FILE as Markdown
  --plot FILE.svg      on quit (or from --replay), write the history as an SVG plot
  --kubelet-url URL    scrape a kubelet directly, e.g. https://10.0.0.5:10250 (needs get on nodes/metrics)
  --prometheus URL     read the figures from a Prometheus-compatible query API
  --token-file FILE    bearer token file for --kubelet-url / --prometheus
  --kubelet-ca FILE    CA bundle for --kubelet-url / --prometheus
  --insecure-skip-tls-verify
                       do not verify the server certificate of --kubelet-url / --prometheus
  --max-inflight N     overview (no --node): at most N node requests at once (default 8)
  --max-rps N          overview: at most N requests per second in total (default 20)
  -h, --help           this help
  -V, --version        the version

Durations are written 100ms, 2s, 1m or 1m30s.

Keys on the live screen
  q / Ctrl-C quit   p pause   b mark a baseline (then "since mark" vs baseline)   ? figures and formulas

When stdout is not a terminal (and no --once), one JSON line is written per scrape.

Exit codes (--once)
  0 PLEG healthy   1 PLEG unhealthy (the kubelet's Healthy() rule)   2 usage or kubeconfig error
  3 metrics could not be read (network, TLS, authentication, RBAC, node not found, unparsable)

Examples
  # in a tmux split beside the workload
  tmux split-window -h 'pleg-top --node worker-1'
  # in a script or a cron job
  pleg-top --node worker-1 --once -o json | jq '.relist.windowMeanSeconds'
  pleg-top --node worker-1 --once --window 30s || echo "PLEG trouble on worker-1 (exit $?)"
  # the churn exercise: press b while idle, then scale a deployment of 12 pause pods 12 -> 0 -> 12
  pleg-top --node worker-1 --window 30s
  # see a stall cross the threshold within seconds
  pleg-top --demo --demo-speed 60
`;
}
