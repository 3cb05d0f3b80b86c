// Colour is never the only carrier of meaning, and NO_COLOR / --no-color turn it off: the real CLI in a
// real terminal (tmux), its screen captured with the escape codes (capture-pane -e).
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {cliPath} from '../helpers/run-cli.js';
import {tmux, hasTmux, startTmux, type TmuxSession} from '../helpers/tmux.js';
import {startFakeCluster, type FakeCluster} from './fake-cluster.js';

const noTmux = hasTmux ? false : 'tmux is not installed (apt-get install tmux)';

function start(args: string[], env: Record<string, string> = {}): TmuxSession {
	const command = [process.execPath, cliPath, ...args].map((word) => `'${word}'`).join(' ');
	return startTmux(command, {columns: 100, rows: 30, env: {HOME: '/nonexistent', ...env}});
}

/** The screen with its SGR codes. */
function withCodes(session: TmuxSession): string {
	return tmux(['capture-pane', '-p', '-e', '-t', session.name]);
}

/** SGR parameters that set a colour: 30-38 / 90-97 foreground, 40-48 / 100-107 background. */
function colourCodes(screen: string): string[] {
	const found: string[] = [];
	for (const [sequence, parameters] of screen.matchAll(/\u001B\[([\d;]*)m/g)) {
		const codes = parameters!.split(';').map(Number);
		if (
			codes.some(
				(code) => (code >= 30 && code <= 38) || (code >= 40 && code <= 48) || (code >= 90 && code <= 97) || (code >= 100 && code <= 107),
			)
		) {
			found.push(JSON.stringify(sequence));
		}
	}

	return found;
}

async function colourless(session: TmuxSession, text: RegExp | string): Promise<string> {
	const screen = await session.waitFor(text, 15_000);
	assert.deepEqual(colourCodes(withCodes(session)), [], `colour codes on the screen showing ${String(text)}`);
	return screen;
}

describe('colour', {skip: noTmux}, () => {
	let cluster: FakeCluster;
	before(async () => {
		cluster = await startFakeCluster(['worker-1']);
	});

	after(async () => {
		await cluster.close();
	});

	test('in colour by default, CI=true or not: the healthy verdict is green (the check below can see colour)', async () => {
		// CI set in the environment must not grey out a screen someone is watching.
		const session = start(['--demo'], {CI: 'true'});
		try {
			await session.waitFor('✓ PLEG is healthy');
			// 32 = green foreground.
			assert.ok(
				colourCodes(withCodes(session)).some((code) => /\[(?:[\d;]*;)?32[;m]/.test(code)),
				withCodes(session),
			);
		} finally {
			session.kill();
		}
	});

	/** The foreground colour codes of the healthy verdict's row ('32' for green, '38;5;N' for a 256-colour shade). */
	async function verdictColour(session: TmuxSession): Promise<string[]> {
		await session.waitFor('✓ PLEG is healthy');
		const row = withCodes(session)
			.split('\n')
			.find((line) => line.includes('PLEG is healthy'));
		return [...(row ?? '').matchAll(/\u001B\[([\d;]*)m/g)]
			.map(([, codes]) => codes!)
			.filter((codes) => /(^|;)(3\d|38;5;\d+)(;|$)/.test(codes));
	}

	test('--theme light, or COLORFGBG with a white background: darker shades that read on white; COLORFGBG dark or --theme dark: the default', async () => {
		const shades: Record<string, string[]> = {};
		for (const [name, args, env] of [
			['default', [], {}],
			['--theme light', ['--theme', 'light'], {}],
			['COLORFGBG=0;15', [], {COLORFGBG: '0;15'}],
			['COLORFGBG=15;0', [], {COLORFGBG: '15;0'}],
			['--theme dark over COLORFGBG=0;15', ['--theme', 'dark'], {COLORFGBG: '0;15'}],
		] as Array<[string, string[], Record<string, string>]>) {
			const session = start(['--demo', ...args], env);
			try {
				shades[name] = await verdictColour(session);
			} finally {
				session.kill();
			}
		}

		// the default green is the 16-colour 32; the light palette's #116329 is a 256-colour shade (xterm-256color)
		assert.ok(
			shades['default']!.some((codes) => /(^|;)32(;|$)/.test(codes)),
			JSON.stringify(shades),
		);
		assert.ok(
			shades['--theme light']!.some((codes) => /38;5;\d+/.test(codes)),
			JSON.stringify(shades),
		);
		assert.ok(!shades['--theme light']!.some((codes) => /(^|;)32(;|$)/.test(codes)), JSON.stringify(shades));
		assert.deepEqual(shades['COLORFGBG=0;15'], shades['--theme light']);
		assert.deepEqual(shades['COLORFGBG=15;0'], shades['default']);
		assert.deepEqual(shades['--theme dark over COLORFGBG=0;15'], shades['default']);
	});

	test('NO_COLOR=1: no colour codes, and ok, warn, unhealthy and paused each show a symbol or a word', async () => {
		const session = start(['--demo', '--demo-speed', '60'], {NO_COLOR: '1'});
		try {
			await colourless(session, /^✓ PLEG is healthy$/m);
			await colourless(session, /^✓ last seen \d+s ago · ok ≤ 5s$/m);
			session.keys('s');
			// At 60× the age passes 5 s (warn) within a tenth of a second and 3m0s (unhealthy) about 3 s later.
			await colourless(session, /^! last seen .+ · warn > 5s$/m);
			await colourless(session, /^✗ PLEG is not healthy: pleg was last seen active/m);
			await colourless(session, /^✗ last seen .+ · unhealthy > 3m$/m);
			session.keys('p');
			await colourless(session, 'PAUSED');
		} finally {
			session.kill();
		}
	});

	test('--no-color: no colour codes when the figures go STALE after an RBAC error', async () => {
		const session = start(['--no-color', '--node', 'worker-1'], {KUBECONFIG: cluster.kubeconfig});
		try {
			await colourless(session, /^✓ PLEG is healthy$/m);
			cluster.api.setFault({type: 'status', code: 403}, {route: 'metrics', node: 'worker-1'});
			await colourless(session, /^STALE — last good data/m);
			await colourless(session, /^✗ context "prod" \(user "jane"\) is not allowed to get nodes\/proxy/m);
		} finally {
			cluster.api.clearFaults();
			session.kill();
		}
	});
});
