// Runs a kubeconfig exec credential plugin (users[].user.exec) the way kubectl does, but bounded: client-node's
// own runner has no time limit, so a plugin that hangs (an SSO helper waiting for a browser, a stuck network call)
// would hold every later request of pleg-top forever. Here the plugin is killed once its time is up, and the
// caller turns that into a failure the screen shows (STALE, with the cause).
import {spawn} from 'node:child_process';
import {RequestTimeoutError} from '../http/request-errors.js';

/** users[].user.exec as the kubeconfig gives it (client-node's User['exec'] is `any`). */
export type ExecSpec = {
	command: string;
	args: string[];
	env: Array<{name: string; value: string}>;
	apiVersion: string;
	installHint?: string;
};

/** What pleg-top uses of an ExecCredential's status. */
export type ExecCredentialStatus = {
	token?: string;
	clientCertificateData?: string;
	clientKeyData?: string;
	expirationTimestamp?: string;
};

/** The plugin was killed after `timeoutMs` without having answered. */
export class ExecPluginTimeoutError extends RequestTimeoutError {
	override name = 'ExecPluginTimeoutError';
}

/** The longest a plugin may take, ms: kubectl has no bound of its own; pleg-top takes --timeout, at most this. */
export const maxExecTimeoutMs = 30_000;

/** A credential is used until this long before its expirationTimestamp, ms, so no request leaves with one about to lapse. */
const expiryMarginMs = 30_000;

/** An ExecCredential is a few KB; a plugin printing more than this is broken (or endless), and is killed. */
const maxOutputBytes = 1024 * 1024;
/** Only this much of the plugin's stderr is kept for the message. */
const maxStderrBytes = 16 * 1024;

/** Plugins running now: killed when pleg-top exits, so a hung one does not outlive it. */
const running = new Set<ReturnType<typeof spawn>>();
const killRunning = () => {
	for (const child of running) child.kill('SIGKILL');
};

/** The bound on one plugin run for a request timeout of `requestTimeoutMs`. */
export function execTimeoutFor(requestTimeoutMs: number): number {
	return Math.min(maxExecTimeoutMs, requestTimeoutMs);
}

/**
 * Until when (ms) a credential fetched at `fetchedAt` is used: its expirationTimestamp less the margin. Without
 * one (or with one that is not a time), kubectl's rule: for the life of the process, until the server answers
 * 401 (the transport then asks for a new one).
 */
export function credentialGoodUntil(status: ExecCredentialStatus, fetchedAt: number): number {
	const expiry = status.expirationTimestamp === undefined ? Number.NaN : Date.parse(status.expirationTimestamp);
	return Number.isNaN(expiry) ? Number.POSITIVE_INFINITY : Math.max(fetchedAt, expiry - expiryMarginMs);
}

/** The user's exec spec, or null when the user has none. */
export function execSpecOf(exec: unknown): ExecSpec | null {
	if (typeof exec !== 'object' || exec === null) {
		return null;
	}

	const fields = exec as Record<string, unknown>; // checked object
	if (typeof fields['command'] !== 'string') {
		return null;
	}

	const args = Array.isArray(fields['args']) ? fields['args'].map(String) : [];
	const env = Array.isArray(fields['env'])
		? fields['env'].flatMap((entry: unknown) => {
				const pair = entry as {name?: unknown; value?: unknown} | null; // checked below
				// eslint-disable-next-line @typescript-eslint/no-base-to-string -- a value as the kubeconfig gives it, shown as text
				return typeof pair?.name === 'string' ? [{name: pair.name, value: String(pair.value ?? '')}] : [];
			})
		: [];
	const apiVersion = typeof fields['apiVersion'] === 'string' ? fields['apiVersion'] : 'client.authentication.k8s.io/v1';
	const installHint = typeof fields['installHint'] === 'string' ? fields['installHint'] : undefined;
	return {command: fields['command'], args, env, apiVersion, ...(installHint === undefined ? {} : {installHint})};
}

/**
 * Runs the plugin once and resolves with its ExecCredential's status. Rejects with the spawn error (ENOENT),
 * ExecPluginTimeoutError, an Error carrying its stderr when it exits non-zero, or a SyntaxError/TypeError when its
 * stdout is not an ExecCredential (the stdout itself never goes into a message: it may be the credential).
 */
export async function runExecPlugin(spec: ExecSpec, timeoutMs: number): Promise<ExecCredentialStatus> {
	// kubectl tells the plugin it runs without a terminal to ask on (pleg-top's screen owns the terminal).
	const execInfo = JSON.stringify({apiVersion: spec.apiVersion, kind: 'ExecCredential', spec: {interactive: false}});
	const env: NodeJS.ProcessEnv = {...process.env, KUBERNETES_EXEC_INFO: execInfo};
	for (const {name, value} of spec.env) {
		env[name] = value;
	}

	const child = spawn(spec.command, spec.args, {env, stdio: ['ignore', 'pipe', 'pipe']});
	if (running.size === 0) process.once('exit', killRunning);
	running.add(child);
	return new Promise((resolve, reject) => {
		const stdout: Buffer[] = [];
		let stdoutBytes = 0;
		let stderr = '';
		let settled = false;
		const finish = (outcome: () => void) => {
			if (!settled) {
				settled = true;
				clearTimeout(timer);
				running.delete(child);
				if (running.size === 0) process.removeListener('exit', killRunning);
				outcome();
			}
		};

		const stop = (error: Error) => {
			// SIGKILL: a plugin stuck waiting may ignore SIGTERM. The answer does not wait for its pipes to close
			// (a child of the plugin can hold them open).
			child.kill('SIGKILL');
			finish(() => reject(error));
		};

		const timer = setTimeout(() => stop(new ExecPluginTimeoutError(timeoutMs)), timeoutMs);
		child.stdout.on('data', (chunk: Buffer) => {
			stdoutBytes += chunk.length;
			if (stdoutBytes > maxOutputBytes) {
				stop(new TypeError('the plugin printed more than 1 MiB'));
			} else {
				stdout.push(chunk);
			}
		});
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (chunk: string) => {
			if (stderr.length < maxStderrBytes) stderr += chunk.slice(0, maxStderrBytes - stderr.length);
		});
		child.on('error', (error) => finish(() => reject(error)));
		child.on('close', (code) => {
			finish(() => {
				if (code !== 0) {
					reject(new Error(stderr));
					return;
				}

				try {
					resolve(statusOf(JSON.parse(Buffer.concat(stdout).toString('utf8'))));
				} catch (error) {
					reject(error);
				}
			});
		});
	});
}

function statusOf(credential: unknown): ExecCredentialStatus {
	const status = (credential as {status?: unknown} | null)?.status; // checked below
	if (typeof status !== 'object' || status === null) {
		throw new TypeError('no status');
	}

	const fields = status as Record<string, unknown>; // checked object
	const text = (name: string) => (typeof fields[name] === 'string' && fields[name] !== '' ? {[name]: fields[name]} : {});
	return {...text('token'), ...text('clientCertificateData'), ...text('clientKeyData'), ...text('expirationTimestamp')};
}
