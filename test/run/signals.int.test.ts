// run/signals.ts: which events stop a run, and which of them count as a hangup (exit 129). Each case runs in a
// child process: a hangup changes the process for good (its standard streams are let go of on exit).
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const signalsModule = fileURLToPath(new URL('../../source/run/signals.ts', import.meta.url));

/** Runs `body` after `onStop` is registered (its calls counted in `stops`); returns what the child printed and its exit code. */
function run(body: string, options: {stdoutClosed?: boolean; terminal?: boolean}) {
	const script = `
import {hangupExitCode, onStop, terminalGone} from ${JSON.stringify(signalsModule)};
let stops = 0;
const unregister = onStop(() => stops++, ${JSON.stringify(options)});
${body}
setImmediate(() => {
	process.stderr.write(JSON.stringify({stops, gone: terminalGone()}));
	process.exitCode = terminalGone() ? hangupExitCode : 0;
});
`;
	const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {encoding: 'utf8'});
	return {...(JSON.parse(child.stderr) as {stops: number; gone: boolean}), code: child.status};
}

const eio = "Object.assign(new Error('write EIO'), {code: 'EIO'})";

test('SIGHUP stops once and is a hangup (exit 129); a second SIGHUP does not end the process before its files are written', () => {
	assert.deepEqual(run("process.emit('SIGHUP'); process.kill(process.pid, 'SIGHUP');", {}), {stops: 1, gone: true, code: 129});
});

test('SIGTERM and SIGINT stop once and are no hangup', () => {
	assert.deepEqual(run("process.emit('SIGTERM'); process.emit('SIGINT');", {}), {stops: 1, gone: false, code: 0});
});

test('the terminal gone under the screen (EIO on stdin or stdout) is a hangup; later errors on it are ignored', () => {
	const body = `process.stdin.emit('error', ${eio}); process.stdout.emit('error', ${eio}); process.stderr.emit('error', ${eio});`;
	assert.deepEqual(run(body, {terminal: true}), {stops: 1, gone: true, code: 129});
	// Any other failure of the terminal stops the screen too, but is no hangup.
	assert.deepEqual(run("process.stdout.emit('error', Object.assign(new Error('boom'), {code: 'EINVAL'}));", {terminal: true}), {
		stops: 1,
		gone: false,
		code: 0,
	});
});

test('a closed stdout pipe (`| head`) stops quietly and is no hangup; after unregistering nothing stops', () => {
	assert.deepEqual(run("process.stdout.emit('error', Object.assign(new Error('write EPIPE'), {code: 'EPIPE'}));", {stdoutClosed: true}), {
		stops: 1,
		gone: false,
		code: 0,
	});
	assert.deepEqual(run("unregister(); process.on('SIGTERM', () => {}); process.emit('SIGTERM');", {}), {stops: 0, gone: false, code: 0});
});
