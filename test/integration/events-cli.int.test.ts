// The node's Events and the next steps through the built CLI against the fake API server: --once JSON and JSON lines
// carry `events` and `eventsError` exactly; a 403 on the Events is named with its RBAC rule and fails nothing else;
// the --once text lists the Events and, when unhealthy, the commands to run with the node filled in.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {after, before, beforeEach, describe, test} from 'node:test';
import {assertNoSecretsIn, integrationSecrets} from '../helpers/no-secrets.js';
import {capturedOutput, runCli, spawnCli, type CliProcess} from '../helpers/run-cli.js';
import {eventFlood} from '../helpers/event-flood.js';
import {readDump} from '../domain/dump.js';
import {kubeconfigYaml, singleContext} from '../helpers/kubeconfig-files.js';
import {dumpThenMinuteLater, fast, startCluster, testToken, tokenUser, v121After, withLastSeen, type Cluster} from './cluster.js';

let cluster: Cluster;
const notReady = {status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy'} as const;
const running: CliProcess[] = [];
/** When the Events were stamped, s: their ages are measured from here. */
let stampedAt = 0;

/** An RFC 3339 time `secondsAgo` before stampedAt, to the second as the API server writes it. */
const ago = (secondsAgo: number) => new Date((stampedAt - secondsAgo) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

/** `count` Events, Event i (i + 60) s before the stamp, except `newestAt`, 5 s before it. */
const flood = (count: number, newestAt: number) => eventFlood(count, newestAt, (index) => stampedAt - index - 60, stampedAt - 5);

before(async () => {
	stampedAt = Math.floor(Date.now() / 1000);
	cluster = await startCluster([
		{
			name: 'worker-1',
			kubeletVersion: 'v1.21.2',
			containerRuntimeVersion: 'cri-o://1.30.1',
			metrics: () => withLastSeen(readDump('1.21.2'), 1),
			events: [
				{
					type: 'Warning',
					reason: 'ContainerGCFailed',
					message: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded\n',
					count: 3,
					firstTimestamp: ago(400),
					lastTimestamp: ago(75),
					source: {component: 'kubelet', host: 'worker-1'},
				},
				{
					type: 'Normal',
					reason: 'NodeNotReady',
					message: 'Node worker-1 status is now: NodeNotReady',
					count: 1,
					lastTimestamp: ago(120),
					source: {component: 'kubelet', host: 'worker-1'},
				},
			],
		},
		{name: 'quiet-1', kubeletVersion: 'v1.21.2', metrics: () => withLastSeen(readDump('1.21.2'), 1)},
		// Three pages of Events (500 a page), the newest on the last; and 10,000, the newest on the 20th page.
		{name: 'flooded', kubeletVersion: 'v1.21.2', metrics: () => withLastSeen(readDump('1.21.2'), 1), events: flood(1200, 1100)},
		{name: 'ten-thousand', kubeletVersion: 'v1.21.2', metrics: () => withLastSeen(readDump('1.21.2'), 1), events: flood(10_000, 9998)},
		{
			name: 'not-ready-1',
			kubeletVersion: 'v1.21.2',
			// NotReady for 48 s when stamped: pods with the default 300 s toleration go in 252 s = 4m12s.
			ready: {...notReady, lastTransitionTime: ago(48)},
			pods: 23,
			metrics: () => withLastSeen(readDump('1.21.2'), 200),
		},
	]);
});

beforeEach(() => {
	cluster.fake.clearFaults();
	cluster.fake.setMetrics('worker-1', dumpThenMinuteLater());
});

after(async () => {
	for (const cli of running) cli.child.kill('SIGKILL');
	await cluster.close();
	assertNoSecretsIn(capturedOutput, integrationSecrets({'test token': testToken}));
});

const once = (node: string, ...extra: string[]) => ['--node', node, '--once', ...fast, ...extra];
type Report = Record<string, any>;

/** Seconds since the Events were stamped, as the test reads its clock now (the CLI read it a little earlier). */
const elapsed = () => Date.now() / 1000 - stampedAt;

describe('events and eventsError in the JSON', () => {
	test('--once -o json: exactly {reason, message, ageSeconds, count} per Event, newest first; eventsError null', async () => {
		const result = await runCli(once('worker-1', '-o', 'json'), {env: cluster.env});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		const report = JSON.parse(result.stdout) as Report;
		assert.equal(report['eventsError'], null);
		const events = report['events'] as Report[];
		assert.deepEqual(
			events.map((event) => Object.keys(event)),
			[
				['reason', 'message', 'ageSeconds', 'count'],
				['reason', 'message', 'ageSeconds', 'count'],
			],
		);
		// Newest first: the GC failure 75 s before the stamp, then NodeNotReady 120 s before it; the message trimmed.
		assert.deepEqual(
			events.map(({reason, message, count}) => ({reason, message, count})),
			[
				{reason: 'ContainerGCFailed', message: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded', count: 3},
				{reason: 'NodeNotReady', message: 'Node worker-1 status is now: NodeNotReady', count: 1},
			],
		);
		const now = elapsed();
		for (const [index, stamped] of [75, 120].entries()) {
			const age = events[index]!['ageSeconds'] as number;
			assert.ok(age >= stamped && age <= stamped + now, `${age} s not within [${stamped}, ${stamped + now}]`);
		}
	});

	test('no Events: [] and eventsError null', async () => {
		const result = await runCli(once('quiet-1', '-o', 'json'), {env: cluster.env});
		assert.equal(result.code, 0);
		const report = JSON.parse(result.stdout) as Report;
		assert.deepEqual(report['events'], []);
		assert.equal(report['eventsError'], null);
	});

	test('a 403 on the Events: [] and eventsError naming the rule; the figures, the exit code and stderr as without it', async () => {
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'events'});
		const result = await runCli(once('worker-1', '-o', 'json'), {env: cluster.env});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		const report = JSON.parse(result.stdout) as Report;
		assert.equal(report['healthy'], true);
		assert.equal(report['relist'].windowCount, 60);
		assert.deepEqual(report['events'], []);
		assert.equal(
			report['eventsError'],
			'context "fake-ctx" (user "token-user") is not allowed to list events in namespace "default"; needed: list on events in namespace default (Role rule in namespace default: apiGroups [""], resources ["events"], verbs ["list"])',
		);
	});

	test('JSON lines: every line has both keys; the Events come once answered, not a line of their own', async () => {
		let request = 0;
		cluster.fake.setMetrics('worker-1', () => v121After(++request));
		const cli = spawnCli(['--node', 'worker-1', ...fast], {env: cluster.env, timeoutMs: 30_000});
		running.push(cli);
		const parse = (stdout: string) =>
			stdout
				.split('\n')
				.slice(0, -1)
				.map((text) => JSON.parse(text) as Report);
		await cli.waitForStdout((stdout) => parse(stdout).filter((line) => line['eventsError'] === null).length >= 2, 20_000);
		cli.child.kill('SIGTERM');
		const result = await cli.exited;
		assert.equal(result.code, 0);
		const lines = parse(result.stdout);
		for (const line of lines) {
			assert.ok('events' in line && 'eventsError' in line, JSON.stringify(line));
			// Before the first answer the list is not read, and says so; after it, the two Events.
			if (line['eventsError'] === null) {
				assert.deepEqual(
					(line['events'] as Report[]).map((event) => event['reason']),
					['ContainerGCFailed', 'NodeNotReady'],
				);
			} else {
				assert.equal(line['eventsError'], "the node's Events were not read");
				assert.deepEqual(line['events'], []);
			}
		}

		// One line per scrape: the Events' answer adds none (each line has 60 relists more than the one before).
		const counts = lines.map((line) => line['relist'].count as number);
		assert.deepEqual(
			counts.slice(1).map((count, index) => count - counts[index]!),
			counts.slice(1).map(() => 60),
		);
	});
});

describe('the --once text', () => {
	test('Events across pages: the newest (from the last page) first, 50 listed, the number the API server holds', async () => {
		const result = await runCli(once('flooded'), {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const lines = result.stdout.split('\n').filter((line) => /^events? /.test(line));
		assert.equal(lines.length, 51);
		assert.match(lines[0]!, /^event +Newest ×1, \d+s ago: m$/);
		// Then E0, E1, …: 60 s, 61 s … before the stamp.
		assert.match(lines[1]!, /^event +E0 ×1, (\d+s|\dm(\d+s)?) ago: m$/);
		assert.match(lines[49]!, /^event +E48 ×1, /);
		assert.equal(lines[50], 'events  1200 in all, the 50 newest listed');
	});

	test('10,000 Events: every page read, the newest (on the 20th page) first, the count exact', async () => {
		const before = cluster.fake.requests.length;
		const result = await runCli(once('ten-thousand', '-o', 'json'), {env: cluster.env});
		assert.equal(result.code, 0, result.stderr);
		const events = (JSON.parse(result.stdout) as Report)['events'] as Report[];
		assert.equal(events.length, 50);
		// Newest 5 s before the stamp, then E0, E1, …: 60 s, 61 s … before it.
		assert.deepEqual(
			events.slice(0, 3).map((event) => event['reason']),
			['Newest', 'E0', 'E1'],
		);
		const pages = cluster.fake.requests.slice(before).filter((request) => request.path.includes('involvedObject.name%3Dten-thousand&'));
		// One read is 20 pages: the first without a token, 19 with the one the page before gave.
		const paths = pages.map((request) => request.path);
		assert.ok(paths.length >= 20 && paths.length % 20 === 0, paths.join('\n'));
		assert.deepEqual(
			paths.slice(0, 20).map((path) => /&continue=[\w-]+$/.test(path)),
			Array.from({length: 20}, (_, index) => index > 0),
		);
		const text = await runCli(once('ten-thousand'), {env: cluster.env});
		assert.match(text.stdout, /^event +Newest ×1, \d+s ago: m$/m);
		assert.match(text.stdout, /^events +10000 in all, the 50 newest listed$/m);
	});

	test('unhealthy: the Events with age and count, then the next steps with the node filled in; exit 1', async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(200));
		const result = await runCli(once('worker-1'), {env: cluster.env});
		assert.equal(result.code, 1);
		const lines = result.stdout.split('\n');
		const events = lines.filter((line) => line.startsWith('event '));
		assert.equal(events.length, 2);
		// Ages as kubectl prints them (seconds below 2 minutes, then minutes and seconds), 75 s and 120 s when stamped
		// and older by however long the tests before this one took.
		const ageIn = (line: string, pattern: RegExp): number => {
			const match = pattern.exec(line);
			assert.ok(match, line);
			return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
		};

		const now = elapsed();
		const gcAge = ageIn(
			events[0]!,
			/^event +ContainerGCFailed ×3, (?:(\d+)m)?(?:(\d+)s)? ago \(kubelet\): rpc error: code = DeadlineExceeded desc = context deadline exceeded$/,
		);
		assert.ok(gcAge >= 75 && gcAge <= 75 + now + 1, `${gcAge} s, ${now} s after the stamp`);
		const notReadyAge = ageIn(
			events[1]!,
			/^event +NodeNotReady ×1, (?:(\d+)m)?(?:(\d+)s)? ago \(kubelet\): Node worker-1 status is now: NodeNotReady$/,
		);
		assert.ok(notReadyAge >= 120 && notReadyAge <= 120 + now + 1, `${notReadyAge} s, ${now} s after the stamp`);
		assert.deepEqual(
			lines.filter((line) => line.startsWith('next step ')).map((line) => line.replace(/^next step +/, '')),
			[
				'kubectl --context fake-ctx describe node worker-1',
				'kubectl --context fake-ctx cordon worker-1',
				// The Node reports cri-o: its unit is crio.
				'systemctl status crio  # on the node',
				'journalctl -u crio --since -15m  # on the node',
				'crictl --timeout 5s info  # on the node',
				'crictl pods --state notready  # on the node',
				'journalctl -u kubelet --since -30m | grep -i pleg  # on the node',
			],
		);
	});

	test('NotReady: when the pods with the default toleration are evicted, in the text and as podsEvictedInSeconds', async () => {
		// NotReady for 48 s as this test starts: the countdown is read against this test's own clock, whatever ran before.
		const since = Math.floor(Date.now() / 1000);
		const waited = () => Date.now() / 1000 - since;
		cluster.fake.setReady('not-ready-1', {
			...notReady,
			lastTransitionTime: new Date((since - 48) * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
		});
		const text = await runCli(once('not-ready-1'), {env: cluster.env});
		assert.equal(text.code, 1, text.stderr);
		const eviction = /^eviction +pods evicted in ~(\d+)m(\d+)s \(default tolerationSeconds\)$/m.exec(text.stdout);
		assert.ok(eviction, text.stdout);
		// 252 s = 4m12s less the whole seconds since the stamp (floored), however slowly the CLI ran.
		const shown = Number(eviction[1]) * 60 + Number(eviction[2]);
		assert.ok(shown <= 252 && shown >= 252 - Math.ceil(waited()), text.stdout);

		const json = await runCli(once('not-ready-1', '-o', 'json'), {env: cluster.env});
		const report = JSON.parse(json.stdout) as Report;
		const expected = 252 - waited();
		assert.ok(
			report['podsEvictedInSeconds'] > expected - 0.5 && report['podsEvictedInSeconds'] <= 252,
			String(report['podsEvictedInSeconds']),
		);
		// The pods that go, counted by spec.nodeName while the Node is not Ready.
		assert.match(text.stdout, /^pods +23 pods on the node$/m);
		assert.equal(report['podsOnNode'], 23);
		assert.equal(report['podsOnNodeError'], null);
		const podRequests = cluster.fake.requests.filter((request) => request.path.startsWith('/api/v1/pods?'));
		assert.ok(podRequests.length > 0);
		assert.ok(
			podRequests.every((request) => request.path === '/api/v1/pods?fieldSelector=spec.nodeName%3Dnot-ready-1&limit=500'),
			podRequests.map((request) => request.path).join('\n'),
		);
		// Ready: no eviction to count down to, and no pods listed.
		const before = podRequests.length;
		const ready = JSON.parse((await runCli(once('quiet-1', '-o', 'json'), {env: cluster.env})).stdout) as Report;
		assert.equal(ready['podsEvictedInSeconds'], null);
		assert.equal(ready['podsOnNode'], null);
		assert.equal(cluster.fake.requests.filter((request) => request.path.startsWith('/api/v1/pods?')).length, before);
	});

	test('listing pods refused: said in one line and the JSON key, the rest of the report as without it', async () => {
		cluster.fake.setFault({type: 'status', code: 403}, {route: 'pods'});
		const text = await runCli(once('not-ready-1'), {env: cluster.env});
		assert.equal(text.code, 1, text.stderr);
		assert.equal(text.stderr, '');
		assert.match(text.stdout, /^pods +pods not counted: not allowed to list pods \(list on pods\)$/m);
		const report = JSON.parse((await runCli(once('not-ready-1', '-o', 'json'), {env: cluster.env})).stdout) as Report;
		assert.equal(report['podsOnNode'], null);
		assert.equal(report['podsOnNodeError'], 'not allowed to list pods (list on pods)');
		assert.equal(report['healthy'], false);
	});

	test('--kubeconfig and --context as given, quoted: bash hands kubectl exactly those words', async () => {
		cluster.fake.setMetrics('worker-1', dumpThenMinuteLater(200));
		const context = `on-call's "prod" $(date)`;
		const spec = {...singleContext(cluster.fake.url, tokenUser), contexts: [{name: context, cluster: 'fake', user: tokenUser.name}]};
		const file = cluster.temp.write(`it's a dir/kube config.yaml`, kubeconfigYaml(spec));
		const result = await runCli([...once('worker-1'), '--kubeconfig', file, '--context', context], {env: {HOME: cluster.temp.dir}});
		assert.equal(result.code, 1, result.stderr);
		const kubectl = result.stdout
			.split('\n')
			.filter((line) => line.startsWith('next step ') && line.includes('kubectl'))
			.map((line) => line.replace(/^next step +/, ''));
		assert.equal(kubectl.length, 2, result.stdout);
		// Each line run by bash against a stub kubectl that prints the words it was given, one per NUL.
		for (const [line, verb] of [
			[kubectl[0]!, ['describe', 'node', 'worker-1']],
			[kubectl[1]!, ['cordon', 'worker-1']],
		] as const) {
			const words = execFileSync('bash', ['-c', `kubectl() { printf '%s\\0' "$@"; }\n${line}`], {encoding: 'utf8'})
				.split('\0')
				.slice(0, -1);
			assert.deepEqual(words, ['--kubeconfig', file, '--context', context, ...verb], line);
		}
	});

	test('healthy: the Events, no next steps; a 403 on them is one line naming the rule', async () => {
		const healthy = await runCli(once('worker-1'), {env: cluster.env});
		assert.equal(healthy.code, 0);
		assert.equal(healthy.stdout.split('\n').filter((line) => line.startsWith('event ')).length, 2);
		assert.doesNotMatch(healthy.stdout, /next step/);

		cluster.fake.setFault({type: 'status', code: 403}, {route: 'events'});
		const refused = await runCli(once('worker-1'), {env: cluster.env});
		assert.equal(refused.code, 0);
		assert.equal(refused.stderr, '');
		assert.deepEqual(
			refused.stdout.split('\n').filter((line) => /^events? /.test(line)),
			[
				'events  context "fake-ctx" (user "token-user") is not allowed to list events in namespace "default"; needed: list on events in namespace default (Role rule in namespace default: apiGroups [""], resources ["events"], verbs ["list"])',
			],
		);
	});
});
