import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	durationLimits,
	bareNodeName,
	glyphsFromLocale,
	parseByteSize,
	parseDuration,
	parseOptions,
	programName,
	themeFromColorfgbg,
	UsageError,
	type Mode,
	type NodeMode,
	type OverviewMode,
} from '../../source/cli/options.js';
import {apiServerNode, apiServerOverview, nodeMode, overviewMode} from '../helpers/modes.js';

const tty = {stdoutIsTty: true};

/** The mode, which must be a one-node run. */
function node(argv: string[], invocation: Parameters<typeof parseOptions>[1] = tty): NodeMode {
	const mode = parseOptions(argv, invocation);
	assert.equal(mode.kind, 'node', JSON.stringify(mode));
	return mode;
}

function overview(argv: string[], invocation: Parameters<typeof parseOptions>[1] = tty): OverviewMode {
	const mode = parseOptions(argv, invocation);
	assert.equal(mode.kind, 'overview', JSON.stringify(mode));
	return mode;
}

/** Throws a UsageError whose message matches `pattern`. */
function rejects(argv: string[], pattern: RegExp): void {
	assert.throws(
		() => parseOptions(argv, tty),
		(error: unknown) => error instanceof UsageError && pattern.test(error.message),
		argv.join(' '),
	);
}

describe('parseDuration', () => {
	test('reads the units people write', () => {
		assert.equal(parseDuration('100ms'), 100);
		assert.equal(parseDuration('2s'), 2000);
		assert.equal(parseDuration('1m'), 60_000);
		assert.equal(parseDuration('1m30s'), 90_000);
		assert.equal(parseDuration('1.5s'), 1500);
	});

	test('rejects what is not a duration, naming the accepted forms', () => {
		for (const bad of ['', '10', 's', '1x', '1s junk', '-1s']) {
			assert.throws(
				() => parseDuration(bad),
				(error: unknown) => error instanceof UsageError && /100ms, 2s, 1m/.test(error.message),
				bad,
			);
		}
	});
});

describe('parseOptions: the Mode', () => {
	test('defaults: one node through the API server, the live screen on a terminal, 1 s / 10 s / 10 s', () => {
		assert.deepEqual(parseOptions(['--node', 'worker-1'], tty), nodeMode({backend: apiServerNode('worker-1')}));
	});

	test('stdout not a terminal: JSON lines; --once: the report, whatever stdout is', () => {
		assert.equal(node(['--node', 'n'], {stdoutIsTty: false}).output, 'json-lines');
		assert.equal(node(['--node', 'n', '--once'], {stdoutIsTty: false}).output, 'once');
		assert.equal(node(['--node', 'n', '--once']).output, 'once');
	});

	test('no node: the cluster overview through the API server, with its request bounds', () => {
		assert.deepEqual(parseOptions([], tty), overviewMode());
		const bounded = overview(['--max-inflight', '3.7', '--max-rps', '5']);
		assert.deepEqual(bounded.backend, {...apiServerOverview, maxInflight: 3, maxRps: 5});
	});

	test('the node as a positional word, as kubectl takes it; --node still works; both must agree', () => {
		assert.deepEqual(node(['worker-1']).backend, apiServerNode('worker-1'));
		assert.deepEqual(node(['worker-1', '--once', '-o', 'json']).backend, apiServerNode('worker-1'));
		assert.deepEqual(node(['--node', 'worker-1', 'worker-1']).backend, apiServerNode('worker-1'));
		rejects(['--node', 'worker-1', 'worker-2'], /the node is named twice \("worker-2" and --node "worker-1"\)/);
	});

	test('several nodes, or -l/--selector: the overview of those nodes, through the API server only', () => {
		assert.deepEqual(overview(['worker-1', 'worker-2', 'worker-3']).backend, {
			...apiServerOverview,
			names: ['worker-1', 'worker-2', 'worker-3'],
		});
		assert.deepEqual(overview(['-l', 'pool=gpu']).backend, {...apiServerOverview, selector: 'pool=gpu'});
		assert.deepEqual(overview(['--selector=pool=gpu,zone=a']).backend, {...apiServerOverview, selector: 'pool=gpu,zone=a'});
		rejects(['-l', ' '], /^-l\/--selector needs labels/);
		rejects(['worker-1', '-l', 'pool=gpu'], /^-l\/--selector pick nodes of the overview through the API server: drop a node name/);
		rejects(['a', 'b', '--prometheus', 'https://p:9090'], /^several nodes \("a" "b"\) pick nodes .*: drop --prometheus/);
		rejects(['a', 'b', '--node', 'a'], /: drop a node name/);
		rejects(['-l', 'pool=gpu', '--demo'], /: drop --demo/);
	});

	test('an empty node name is an error, not the overview', () => {
		rejects(['--node', ''], /^--node needs a node name/);
		rejects(['--node=  '], /^--node needs a node name/);
		rejects([''], /^--node needs a node name/);
	});

	test('each backend carries only its own fields', () => {
		assert.deepEqual(node(['--demo', '--demo-speed', '60']).backend, {kind: 'demo', speed: 60});
		assert.deepEqual(node(['--replay', 'x.ndjson', '--speed', '4']).backend, {
			kind: 'replay',
			file: 'x.ndjson',
			speed: 4,
			typed: {window: false, interval: false},
		});
		// Typed, --window and --interval replace the recording's own.
		assert.deepEqual(node(['--replay', 'x.ndjson', '--window=30s', '--interval', '2s']).backend, {
			kind: 'replay',
			file: 'x.ndjson',
			speed: 1,
			typed: {window: true, interval: true},
		});
		assert.deepEqual(node(['n', '--kubelet-url', 'https://10.0.0.5:10250', '--token-file', 't', '--kubelet-ca', 'ca.crt']).backend, {
			kind: 'kubelet-direct',
			url: 'https://10.0.0.5:10250',
			node: 'n',
			access: {kubeconfig: undefined, context: undefined},
			direct: {tokenFile: 't', caFile: 'ca.crt', insecureSkipTlsVerify: false},
		});
		assert.deepEqual(node(['n', '--prometheus', 'http://prom:9090', '--insecure-skip-tls-verify']).backend, {
			kind: 'prometheus',
			url: 'http://prom:9090',
			node: 'n',
			direct: {tokenFile: undefined, caFile: undefined, insecureSkipTlsVerify: true},
		});
		assert.deepEqual(overview(['--prometheus', 'https://prom']).backend, {
			kind: 'prometheus',
			url: 'https://prom',
			direct: {tokenFile: undefined, caFile: undefined, insecureSkipTlsVerify: false},
		});
		assert.deepEqual(node(['n', '--kubeconfig', 'k.yaml', '--context', 'prod']).backend, {
			kind: 'api-server',
			node: 'n',
			access: {kubeconfig: 'k.yaml', context: 'prod'},
		});
	});

	test('--history-from: a Prometheus URL for a named node read from its /metrics text', () => {
		assert.deepEqual(node(['n', '--history-from', 'http://prom:9090', '--token-file', 't']).backend, {
			kind: 'api-server',
			node: 'n',
			access: {kubeconfig: undefined, context: undefined},
			history: {url: 'http://prom:9090', direct: {tokenFile: 't', caFile: undefined, insecureSkipTlsVerify: false}},
		});
		assert.equal(node(['n', '--kubelet-url', 'https://10.0.0.5:10250', '--history-from', 'https://prom']).backend.kind, 'kubelet-direct');
		// With --prometheus it is that URL already: the same one is accepted, another is not.
		assert.equal(node(['n', '--prometheus', 'http://prom:9090', '--history-from', 'http://prom:9090']).backend.kind, 'prometheus');
		rejects(
			['n', '--prometheus', 'http://prom:9090', '--history-from', 'http://other:9090'],
			/^--history-from is the --prometheus URL already/,
		);
		rejects(['n', '--history-from', 'prom:9090'], /^--history-from must start with https:\/\/ \(or http:\/\/\), not "prom:"/);
		rejects(['n', '--history-from', 'not a url'], /^--history-from must be a URL/);
		rejects(['--history-from', 'http://prom:9090'], /^--history-from fills one node's chart: give the node/);
		rejects(
			['n', '--once', '--history-from', 'http://prom:9090'],
			/^--history-from fills the chart of a watch; --once reads its own two scrapes/,
		);
		rejects(
			['--demo', '--history-from', 'http://prom:9090'],
			/^--history-from reads a named node's past from Prometheus; --demo has none there/,
		);
		rejects(
			['--kubelet-url', 'https://10.0.0.5:10250', '--history-from', 'http://prom:9090'],
			/--kubelet-url without --node has none there/,
		);
	});

	test('one backend at a time, and no kubeconfig or node name for demo or replay', () => {
		rejects(['--demo', '--replay', 'x.ndjson'], /--demo and --replay each choose where the metrics come from/);
		rejects(['--replay', 'x.ndjson', '--context', 'prod'], /--replay reads no kubeconfig/);
		rejects(['--demo', 'worker-1'], /--demo shows its own simulated node: drop the node name "worker-1"/);
		rejects(['--node', 'n', '--kubelet-url', 'ftp://h'], /must start with https:\/\//);
		rejects(['--node', 'n', '--plot', 'out.png'], /--plot writes SVG/);
		rejects(['--max-inflight', '0'], /--max-inflight must be a number above 0/);
	});

	test('the lab files follow one node over its /metrics text', () => {
		assert.deepEqual(node(['n', '--record', 'r.jsonl', '--summary', 's.md', '--plot', 'p.svg']).lab, {
			record: 'r.jsonl',
			summary: 's.md',
			plot: 'p.svg',
		});
		rejects(['--record', 'r.jsonl'], /^--record follows one node: give the node/);
		rejects(['--summary', 's.md', '--plot', 'p.svg'], /^--summary, --plot follow one node/);
		rejects(
			['n', '--prometheus', 'http://prom', '--record', 'r.jsonl'],
			/--record works on the kubelet's \/metrics text; --prometheus answers with figures/,
		);
	});

	test('--raw: one node over its /metrics text, with or without --once; not --prometheus, not the overview', () => {
		assert.equal(node(['n']).raw, false);
		assert.deepEqual([node(['n', '--raw']).raw, node(['n', '--raw']).output], [true, 'live']);
		assert.deepEqual([node(['n', '--raw', '--once', '-o', 'json']).raw, node(['n', '--raw', '--once']).output], [true, 'once']);
		assert.equal(node(['--demo', '--raw', '--once']).raw, true);
		assert.equal(node(['--replay', 'r.jsonl', '--raw']).raw, true);
		rejects(
			['n', '--prometheus', 'http://prom', '--raw'],
			/^--raw works on the kubelet's \/metrics text; --prometheus answers with figures: drop it$/,
		);
		rejects(['--raw'], /^--raw follows one node: give the node \(pleg-top NODE\)$/);
		rejects(['--replay', 'r.jsonl', '--once', '--raw'], /^--replay --once reports the whole recording; --raw shows one scrape/);
	});

	test('-o json, --once, --window and --interval', () => {
		const mode = node(['--node', 'n', '--once', '-o', 'json', '--window', '30s', '--interval', '500ms']);
		assert.deepEqual([mode.output, mode.format, mode.windowSeconds, mode.intervalMs], ['once', 'json', 30, 500]);
	});

	test('--once takes two scrapes one window apart: a 1 s window is accepted whatever the interval', () => {
		assert.equal(node(['n', '--once', '--window', '1s']).windowSeconds, 1);
		assert.equal(node(['n', '--once', '--window', '1s', '--interval', '5s']).windowSeconds, 1);
		assert.equal(node(['n', '--once', '--window', '200ms']).windowSeconds, 0.2);
		rejects(['n', '--once', '--window', '50ms'], /--window \(50ms\) must be at least 100ms: --once scrapes twice/);
		// Watching, a window must hold two scrapes.
		rejects(['n', '--window', '1s'], /at least two scrapes \(2 × --interval 1s\)/);
	});

	test('durations above their stated maxima are rejected before any timer could overflow', () => {
		rejects(['n', '--interval', '700h'], /^--interval must be at most 1h, not "700h"$/);
		rejects(['n', '--window', '99999h'], /^--window must be at most 24h, not "99999h"$/);
		rejects(['n', '--timeout', '600h'], /^--timeout must be at most 10m, not "600h"$/);
		// The maxima themselves are accepted (a 24 h window needs --once or a long interval is not required).
		assert.equal(node(['n', '--once', '--window', '24h']).windowSeconds, 86_400);
		assert.equal(node(['n', '--interval', '1h', '--window', '2h']).intervalMs, durationLimits.interval);
		assert.equal(node(['n', '--timeout', '10m']).timeoutMs, durationLimits.timeout);
	});

	test("a negative duration gets pleg-top's own message, not the argument parser's", () => {
		rejects(['n', '--interval', '-1s'], /^--interval cannot be negative, not "-1s": write it as 100ms, 2s, 1m or 1m30s$/);
		rejects(['n', '--window=-5s'], /^--window cannot be negative/);
		rejects(['--demo', '--demo-speed', '-2'], /^--demo-speed must be a number above 0 and at most 3600, not "-2"$/);
	});

	test('usage errors say what to write instead', () => {
		rejects(['--node', 'n', '-o', 'yaml'], /--output must be text or json, not "yaml"/);
		rejects(['--node', 'n', '--interval', '10ms'], /at least 100ms/);
		rejects(['--node', 'n', '--interval', 'fast'], /^--interval: "fast" is not a duration: write it as 100ms, 2s, 1m or 1m30s$/);
		rejects(['--node', 'n', '--bogus'], /^unknown flag --bogus$/);
		// A typo: pleg-top's own words and the flag meant (2 letters swapped or wrong in 8; a unique prefix).
		rejects(['n', '--intreval', '2s'], /^unknown flag --intreval: did you mean --interval\?$/);
		rejects(['n', '--contxt', 'prod'], /^unknown flag --contxt: did you mean --context\?/);
		rejects(['n', '--kubeconf', 'f'], /^unknown flag --kubeconf: did you mean --kubeconfig\?/);
		// --kube starts three flags (--kubeconfig, --kubelet-url, --kubelet-ca): no guess.
		rejects(['n', '--kube', 'f'], /^unknown flag --kube$/);
		rejects(['n', '--no-bel'], /^unknown flag --no-bel: did you mean --no-bell\?/);
		rejects(['n', '-x'], /^unknown flag -x$/);
		rejects(['--demo', '--demo-speed', 'fast'], /--demo-speed/);
		rejects(['--demo', '--context', 'prod'], /--demo reads no kubeconfig/);
	});

	test('--no-bell, --quiet and --fail-on (validated; --fail-on only with --once)', () => {
		const plain = node(['n']);
		assert.deepEqual([plain.bell, plain.quiet, plain.failOn], [true, false, 'unhealthy']);
		const flagged = node(['n', '--no-bell', '--quiet']);
		assert.deepEqual([flagged.bell, flagged.quiet], [false, true]);
		assert.equal(node(['n', '--once', '--fail-on', 'warn']).failOn, 'warn');
		assert.equal(overview(['--once', '--fail-on', 'critical']).failOn, 'critical');
		rejects(['n', '--once', '--fail-on', 'yellow'], /^--fail-on must be unhealthy, critical or warn, not "yellow"$/);
		rejects(['n', '--fail-on', 'warn'], /^--fail-on sets the exit code of --once: add --once$/);
	});

	test('NO_COLOR (non-empty) and --no-color turn colour off', () => {
		assert.equal(node(['--demo'], {env: {NO_COLOR: '1'}}).color, false);
		assert.equal(node(['--demo'], {env: {NO_COLOR: ''}}).color, true);
		assert.equal(node(['--demo', '--no-color']).color, false);
	});

	test('--help and --version come first, and --help names the program as it was called', () => {
		assert.deepEqual(parseOptions(['--help']), {kind: 'help', program: 'pleg-top'} satisfies Mode);
		assert.deepEqual(parseOptions(['-h', '--node', ''], {argv1: '/usr/local/bin/kubectl-pleg_top'}), {
			kind: 'help',
			program: 'kubectl pleg-top',
		});
		assert.deepEqual(parseOptions(['-V']), {kind: 'version'});
		assert.equal(programName('/home/me/.npm/bin/pleg-top'), 'pleg-top');
		assert.equal(programName('/work/dist/cli.js'), 'pleg-top');
		assert.equal(programName(undefined), 'pleg-top');
	});
});

describe('node words as kubectl writes them', () => {
	test('node/, nodes/ and no/ come off; a name without a prefix stays; another TYPE/NAME is refused', () => {
		assert.equal(bareNodeName('node/worker-1'), 'worker-1');
		assert.equal(bareNodeName('nodes/worker-1'), 'worker-1');
		assert.equal(bareNodeName('no/worker-1'), 'worker-1');
		assert.equal(bareNodeName('worker-1'), 'worker-1');
		// Only a prefix: "nodepool-1" is a name of its own.
		assert.equal(bareNodeName('nodepool-1'), 'nodepool-1');
		assert.throws(() => bareNodeName('pod/web-0'), /"pod\/web-0" is not a node/);
	});

	test('in the one-node and the several-nodes forms', () => {
		assert.deepEqual(node(['node/worker-1']).backend, apiServerNode());
		assert.deepEqual(overview(['node/a', 'no/b', 'c']).backend, {...apiServerOverview, names: ['a', 'b', 'c']});
	});
});

test('glyphsFromLocale: the first set of LC_ALL, LC_CTYPE, LANG; Unicode only for a UTF-8 codeset, or with none set', () => {
	assert.equal(glyphsFromLocale({}), 'unicode');
	assert.equal(glyphsFromLocale({LANG: 'C'}), 'ascii');
	assert.equal(glyphsFromLocale({LANG: 'C.UTF-8'}), 'unicode');
	assert.equal(glyphsFromLocale({LANG: 'en_US.utf8'}), 'unicode');
	assert.equal(glyphsFromLocale({LANG: 'sr_RS.UTF-8@latin'}), 'unicode');
	assert.equal(glyphsFromLocale({LANG: 'en_US'}), 'ascii');
	assert.equal(glyphsFromLocale({LC_ALL: 'POSIX', LANG: 'en_US.UTF-8'}), 'ascii');
	assert.equal(glyphsFromLocale({LC_ALL: '', LC_CTYPE: 'C', LANG: 'en_US.UTF-8'}), 'ascii');
	assert.equal(glyphsFromLocale({LC_CTYPE: 'C.UTF-8', LANG: 'C'}), 'unicode');
});

test('TERM=dumb: the live screen refused, --once and JSON lines left alone', () => {
	assert.throws(() => parseOptions(['worker-1'], {...tty, env: {TERM: 'dumb'}}), /^UsageError: TERM=dumb cannot draw the live screen/);
	assert.equal(parseOptions(['worker-1', '--once'], {...tty, env: {TERM: 'dumb'}}).kind, 'node');
	assert.equal(parseOptions(['worker-1'], {stdoutIsTty: false, env: {TERM: 'dumb'}}).kind, 'node');
});

describe('--theme', () => {
	test('COLORFGBG names the background last: 7 or 15 is light, another number dark, anything else unknown', () => {
		assert.equal(themeFromColorfgbg('0;15'), 'light');
		assert.equal(themeFromColorfgbg('0;default;7'), 'light');
		assert.equal(themeFromColorfgbg('15;0'), 'dark');
		assert.equal(themeFromColorfgbg('default;default'), null);
		assert.equal(themeFromColorfgbg(undefined), null);
	});

	test('--theme wins over COLORFGBG; without either, dark; another word is a usage error', () => {
		const theme = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
			(parseOptions(['worker-1', ...argv], {env, stdoutIsTty: true}) as {theme: string}).theme;
		assert.equal(theme([]), 'dark');
		assert.equal(theme([], {COLORFGBG: '0;15'}), 'light');
		assert.equal(theme(['--theme', 'dark'], {COLORFGBG: '0;15'}), 'dark');
		assert.equal(theme(['--theme', 'light']), 'light');
		assert.throws(() => theme(['--theme', 'solarized']), /--theme must be dark or light, not "solarized"/);
	});
});

describe('--max-body-size', () => {
	test('binary units as Kubernetes writes them, or bytes', () => {
		assert.equal(parseByteSize('64Mi'), 67_108_864); // 64 × 1024 × 1024
		assert.equal(parseByteSize('256Mi'), 268_435_456);
		assert.equal(parseByteSize('512Ki'), 524_288);
		assert.equal(parseByteSize('1.5Mi'), 1_572_864);
		assert.equal(parseByteSize('2048'), 2048);
	});

	test('the default is 64Mi; a raised one reaches the mode', () => {
		assert.equal((parseOptions(['worker-1']) as NodeMode).maxBodyBytes, 67_108_864);
		assert.equal((parseOptions(['worker-1', '--max-body-size', '256Mi']) as NodeMode).maxBodyBytes, 268_435_456);
	});

	test('anything else, or outside 1Ki..256Mi, is a usage error', () => {
		for (const text of ['64MB', '64 Mi', '-1Mi', 'Mi', '']) {
			assert.throws(() => parseByteSize(text), {
				name: 'UsageError',
				message: `--max-body-size must be a size such as 64Mi, 256Mi or 1Gi, not "${text}"`,
			});
		}

		for (const text of ['1Gi', '257Mi', '1000']) {
			assert.throws(() => parseByteSize(text), {
				name: 'UsageError',
				message: `--max-body-size must be from 1Ki to 256Mi (a body becomes one string), not "${text}"`,
			});
		}
	});
});
