// What a run is asked to do: the Mode that cli/options.ts makes of the command line and run/ carries out. It
// lives with the runners, so run/ needs nothing from cli/, and cli/ depends on run/ only for this contract.

/** How a run shows its figures: the full screen, one JSON line per read (stdout is not a terminal), or one report. */
type Output = 'live' | 'json-lines' | 'once';

/** The --once report's format (-o). */
export const formats = ['text', 'json'] as const;
export type Format = (typeof formats)[number];

/** --fail-on: the band at which --once exits 1. `unhealthy` (the default) is the kubelet's own rule. */
export const failOnBands = ['unhealthy', 'critical', 'warn'] as const;
export type FailOn = (typeof failOnBands)[number];

/** --theme: the screen's palette, for a dark background (the default) or a light one. */
export const themes = ['dark', 'light'] as const;
export type Theme = (typeof themes)[number];

/** Where the node list and proxy requests go: the kubeconfig, read as kubectl reads it. */
export type KubeAccess = {kubeconfig: string | undefined; context: string | undefined};

/** Credentials for a URL pleg-top reaches itself (--kubelet-url, --prometheus). */
export type DirectAccess = {tokenFile: string | undefined; caFile: string | undefined; insecureSkipTlsVerify: boolean};

/** --history-from: the Prometheus that fills the chart and the window with the node's last 15 minutes at start. */
export type HistoryFrom = {url: string; direct: DirectAccess};

/** Where one node's figures come from. */
export type NodeBackend =
	| {kind: 'api-server'; node: string; access: KubeAccess; history?: HistoryFrom}
	/** --kubelet-url: the node name is only a label, and optional. Without --token-file the kubeconfig user authenticates. */
	| {kind: 'kubelet-direct'; url: string; node: string | undefined; access: KubeAccess; direct: DirectAccess; history?: HistoryFrom}
	/** job: --job, the scrape job read (else the one with most kubelet PLEG series). */
	| {kind: 'prometheus'; url: string; node: string; direct: DirectAccess; job?: string}
	/** Simulated seconds per real second. */
	| {kind: 'demo'; speed: number}
	/** Recorded seconds per real second; `typed`: --window / --interval were given (else the recording's own apply). */
	| {kind: 'replay'; file: string; speed: number; typed?: {window: boolean; interval: boolean}};

/** Where every node's figures come from. */
export type OverviewBackend =
	/** Lists the nodes, then reads each one's /proxy/metrics within these bounds. */
	| {
			kind: 'api-server';
			access: KubeAccess;
			maxInflight: number;
			maxRps: number;
			/** -l: only the nodes with these labels (the API server's labelSelector). */
			selector?: string;
			/** `pleg-top a b c`: only these nodes. */
			names?: string[];
	  }
	| {kind: 'prometheus'; url: string; direct: DirectAccess; job?: string};

/** What every run has. */
export type RunSettings = {
	output: Output;
	/** --once's report format. */
	format: Format;
	/** Time between the end of one request and the start of the next, ms. */
	intervalMs: number;
	/** Per-request timeout, ms. */
	timeoutMs: number;
	/** --max-body-size: the most bytes read from one answer, once gunzipped. */
	maxBodyBytes: number;
	/** Window for the windowed figures (--once: the time between its two scrapes), seconds. */
	windowSeconds: number;
	color: boolean;
	/** Ring the terminal bell when the verdict changes (--no-bell: false). */
	bell: boolean;
	/** --quiet: no write-down on quit. */
	quiet: boolean;
	/** --theme, else the terminal's COLORFGBG, else dark. */
	theme: Theme;
	failOn: FailOn;
};

/** --once reads each node twice one window apart: the window as a timer takes it, ms (the one place it leaves seconds). */
export function onceGapMs({windowSeconds}: Pick<RunSettings, 'windowSeconds'>): number {
	return windowSeconds * 1000;
}

/** The lab files of a one-node run: --record (one line per scrape), and on quit --summary and --plot. */
export type LabFiles = {record: string | undefined; summary: string | undefined; plot: string | undefined};

export type NodeMode = RunSettings & {
	kind: 'node';
	backend: NodeBackend;
	lab: LabFiles;
	/** --raw: the screen starts on the raw view (`w`); --once prints the kubelet_pleg_* lines (JSON: the report with `raw`). */
	raw: boolean;
};
export type OverviewMode = RunSettings & {kind: 'overview'; backend: OverviewBackend};

export type Mode =
	/** `program` is how pleg-top was called, for the usage lines: "pleg-top" or "kubectl pleg-top". */
	{kind: 'help'; program: string} | {kind: 'version'} | NodeMode | OverviewMode;
