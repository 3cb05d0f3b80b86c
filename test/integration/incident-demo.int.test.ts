// The built CLI on the demo in a real terminal (tmux), stalled past the threshold at --demo-speed 20: the main view
// shows the CRI calls, the kubelet's Events with their ages and counts and the next steps with the node filled in,
// at 120×35 and, resized, at 80×24 with describe and cordon still there (the history chart gives way first);
// after the recovery the next steps go and the kubelet's NodeReady joins the Events.
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {demoNodeSteps as commands} from '../helpers/next-steps-rows.js';

const skip = hasTmux ? false : 'tmux not installed';
const home = mkdtempSync(join(tmpdir(), 'pleg-top-incident-'));
const sessions: TmuxSession[] = [];

after(() => {
	for (const session of sessions) session.kill();
	rmSync(home, {recursive: true, force: true});
});

// The Node has been NotReady for seconds of demo time (a real second is 20 of them): the horizon is under 5m.
const eviction = /^ {2}pods evicted in ~(?:[0-4]m)?\d+s \(default tolerationSeconds\)$/;
/** An Event's age as the screen writes it, seconds to minutes: a loaded machine reads the screen later in demo time. */
const age = String.raw`\d+(?:s|m|m\d+s) ago`;

const rowsOf = (screen: string) => screen.split('\n').map((row) => row.trimEnd());

describe('the demo stalled past the threshold, in tmux', () => {
	test('120×35 then 80×24: the CRI calls, the Events and the next steps; gone again after r', {skip}, async () => {
		const session = startTmux(`${process.execPath} ${cliPath} --demo --demo-speed 20`, {
			columns: 120,
			rows: 35,
			env: {HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin'},
		});
		sessions.push(session);
		await session.waitFor('✓ PLEG is healthy', 15_000);
		assert.doesNotMatch(session.screen(), /next steps|events ·|CRI calls/, 'an idle node shows none of it');

		session.keys('s');
		// Speed 20: the threshold is 9 real seconds away; the kubelet's NodeNotReady comes with it. The eviction line
		// waits for the Node object's own read (NotReady since), which on a loaded machine trails the Event by a frame.
		const wide = rowsOf(
			await session.waitFor(
				new RegExp(`^ {2}NodeNotReady +${age} {2}×1 {2}Node demo-node status is now: NodeNotReady$[\\s\\S]*^ {2}pods evicted in ~`, 'm'),
				30_000,
			),
		);
		const text = wide.join('\n');
		// Past the threshold, by however much demo time the loaded machine took to draw and read the frame.
		assert.match(text, /✗ PLEG is not healthy: pleg was last seen active (?:[3-9]|\d\d)m\d+s ago; threshold is 3m0s/);
		// The GC run on the hung runtime failed at the 2-minute timeout, before the threshold passed.
		assert.match(
			text,
			new RegExp(`^ {2}ContainerGCFailed +${age} {2}×1 {2}rpc error: code = DeadlineExceeded desc = context deadline exceeded$`, 'm'),
		);
		assert.match(text, /^events · 2 Events, newest first$/m);
		// None of the relist's own CRI calls completes while it hangs. The GC's ListContainers that waited out the
		// 2-minute timeout is one error and one timeout while it is inside the 10 s window (half a real second at
		// ×20), so either row is right, depending on when the screen is read.
		// The window starts at the newest scrape at least 10 s (demo time) old, so it spans 10 s and up to two scrape
		// gaps: at ×20 each 50 ms a loaded machine adds to a gap is another second.
		assert.ok(
			wide.some((row) =>
				/^CRI calls in [12]\ds · (0 completed · 0 errors, 0 timeouts · in flight: not exposed|ListContainers 1 error, 1 timeout \(> 1m59s\), 1 completed)$/.test(
					row,
				),
			),
			text,
		);
		// Under the heading, how long before the pods go: the Node has been NotReady for seconds (demo time).
		const heading = wide.indexOf(commands[0]!);
		assert.match(wide[heading + 1]!, eviction, text);
		assert.deepEqual([wide[heading], ...wide.slice(heading + 2, heading + commands.length + 1)], commands, text);
		assert.match(text, /^history · last /m);

		session.resize(80, 24);
		// At 80×24 the history chart gives way before the next steps do: describe and cordon stay, with the heading
		// and the eviction horizon above them, whatever rows the CRI block takes.
		// A frame drawn at 80 columns: its gauge's 3m tick is on screen (cut from the wider frame before the redraw).
		const small = rowsOf(
			await session.waitFor(/^ +╵1s +╵3m$[\s\S]*^ {2}kubectl describe node demo-node\n {2}kubectl cordon demo-node$/m, 10_000),
		);
		const smallText = small.join('\n');
		assert.ok(
			small.some((row) => new RegExp(`^ {2}NodeNotReady +${age} {2}×1 `).test(row)),
			smallText,
		);
		const smallHeading = small.indexOf(commands[0]!);
		assert.ok(smallHeading > 0, smallText);
		assert.match(small[smallHeading + 1]!, eviction, smallText);
		assert.deepEqual(small.slice(smallHeading + 2, smallHeading + 4), [commands[1], commands[2]], smallText);
		assert.doesNotMatch(smallText, /^history · /m);

		session.keys('r');
		// The Event can be read a scrape before the gauge's recovery: wait for both.
		const recovered = await session.waitFor(
			new RegExp(`✓ PLEG is healthy[\\s\\S]*^ {2}NodeReady +${age} {2}×1 {2}Node demo-node status is now: NodeReady$`, 'm'),
			30_000,
		);
		assert.doesNotMatch(recovered, /next steps|kubectl describe node/);
		session.keys('q');
	});
});
