// `pleg-top lab NODE` on a real terminal (tmux): the plan and its y/N, the phase and the pods Running on the node in
// the screen's header, and Ctrl-C or q that leave the screen, say the namespace is being deleted and wait for it.
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {startFakeApiServer} from '../helpers/fake-api-server.js';
import {createFakeLabCluster, type FakeLabCluster} from '../helpers/fake-lab-cluster.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../helpers/kubeconfig-files.js';
import {cliPath} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';

const token = 'pleg-top-lab-screen-token-9f8e7d6c';
const cleanups: Array<() => Promise<void> | void> = [];

after(async () => {
	for (const cleanup of cleanups) await cleanup();
});

async function startLabOnScreen(size = {columns: 120, rows: 40}): Promise<{lab: FakeLabCluster; session: TmuxSession}> {
	// A namespace that takes a moment to go, so the screen can be seen waiting for it.
	const lab = createFakeLabCluster({node: 'worker-1', podStepMs: 300, namespaceGoneMs: 2000});
	const fake = await startFakeApiServer({
		nodes: [{name: 'worker-1', kubeletVersion: 'v1.28.4', metrics: () => lab.metrics(), allocatablePods: 110}],
		tokens: {[token]: 'alice'},
		extra: lab.extra,
	});
	const temp: TempDir = makeTempDir('pleg-top-lab-screen-');
	const kubeconfig = temp.write('kubeconfig.yaml', kubeconfigYaml(singleContext(fake.url, {name: 'lab-user', token})));
	// Each idle or hold phase lasts 10 s: the tests see a phase and then stop it, which a loaded machine may take seconds
	// to do, and the stop must still fall in the phase seen.
	const args = ['lab', 'worker-1', '--kubeconfig', kubeconfig, '--interval', '200ms', '--window', '1s', '--hold', '10s', '--pods', '3'];
	const command = `sh -c '${process.execPath} ${cliPath} ${args.join(' ')}; echo "AFTER-LAB exit=$?"; sleep 120'`;
	const session = startTmux(command, {...size, env: {HOME: temp.dir}});
	cleanups.push(
		() => session.kill(),
		() => lab.close(),
		async () => fake.close(),
		() => temp.remove(),
	);
	return {lab, session};
}

describe('pleg-top lab on the live screen', {skip: !hasTmux && 'tmux is not installed'}, () => {
	test('y starts it; the header names the phase and the pods Running; Ctrl-C deletes the namespace and waits for it', async () => {
		const {lab, session} = await startLabOnScreen();
		await session.waitFor('Create it and run the lab? [y/N]', 30_000);
		assert.equal(lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')).length, 0);
		session.keys('y', 'Enter');
		const screen = await session.waitFor(/lab 3\/7 hold 3 · 3\/3 Running/, 45_000);
		assert.match(screen, /^pleg-top · worker-1 · lab 3\/7 hold 3 · 3\/3 Running/m);
		// The chart's marks are the phases, by letter, and its legend names those on it (a short phase shares the next one's column).
		assert.match(screen, /R restart · (I idle · )?(U up · )?H hold/);
		const marks = /^\s+([IUH][IUH ]*)$/m.exec(screen)?.[1] ?? '';
		for (const [, letter] of screen.matchAll(/ · ([IUH]) (?:idle|up|hold)/g)) assert.ok(marks.includes(letter!), `${letter} in ${marks}`);
		session.keys('C-c');
		const end = await session.waitFor(/AFTER-LAB exit=\d+/, 45_000);
		assert.match(end, /stopped \(SIGINT\) during hold 3/);
		assert.match(end, /deleting namespace pleg-lab and waiting for it to go…\s+pleg-top lab: namespace pleg-lab deleted\./);
		assert.match(end, /AFTER-LAB exit=130/);
		assert.equal(lab.namespaces.size, 0);
	});

	test('q during idle: the screen waits for the namespace to go, then the write-down of what ran', async () => {
		const {lab, session} = await startLabOnScreen();
		await session.waitFor('Create it and run the lab? [y/N]', 30_000);
		session.keys('y', 'Enter');
		await session.waitFor(/lab 1\/7 idle · 0\/0 Running/, 45_000);
		session.keys('q');
		// q stops the phases; the screen stays, saying it waits for the namespace, and ends once it is gone.
		await session.waitFor(/^pleg-top · worker-1 · lab: deleting namespace pleg-lab, waiting for it to go/m, 20_000);
		const end = await session.waitFor(/AFTER-LAB exit=\d+/, 45_000);
		assert.match(end, /stopped \(q\) during idle/);
		assert.match(end, /namespace pleg-lab deleted/);
		assert.match(end, /phase\s+pods\s+ctrs/);
		assert.match(end, /AFTER-LAB exit=0/);
		assert.equal(lab.namespaces.size, 0);
	});

	test('at 100 columns the plan is broken at spaces, not by the terminal inside a word', async () => {
		// A real cluster's plan (lab --demo creates nothing, so it asks nothing).
		const {session} = await startLabOnScreen({columns: 100, rows: 30});
		const screen = await session.waitFor('Create it and run the lab? [y/N]', 30_000);
		// Each word whole on its row, and a broken line goes on two spaces deeper than its own indentation.
		assert.match(screen, /^ {2}deployment pleg-lab\/churn: .* \(nodeSelector$/m);
		assert.match(screen, /^ {4}kubernetes\.io\/hostname=worker-1\),$/m);
		assert.match(screen, /^ {4}requests .* all capabilities dropped,$/m);
		assert.match(screen, /^ {6}seccomp RuntimeDefault$/m);
		session.keys('n', 'Enter');
		await session.waitFor(/AFTER-LAB exit=0/, 30_000);
	});

	test('n at the question creates nothing', async () => {
		const {lab, session} = await startLabOnScreen();
		await session.waitFor('Create it and run the lab? [y/N]', 30_000);
		session.keys('n', 'Enter');
		const end = await session.waitFor(/AFTER-LAB exit=\d+/, 30_000);
		assert.match(end, /nothing created/);
		assert.match(end, /AFTER-LAB exit=0/);
		assert.deepEqual(
			lab.writes.filter((write) => !write.includes('selfsubjectaccessreviews')),
			[],
		);
	});
});
