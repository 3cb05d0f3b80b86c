// Writes kubeconfig files (and exec credential plugins) into a temp directory for tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {testTls} from './fake-api-server.js';
import {until} from './until.js';

export type TempDir = {
	dir: string;
	/** Writes `text` to dir/name (creating sub-directories) and returns the absolute path. */
	write(name: string, text: string, mode?: number): string;
	remove(): void;
};

export function makeTempDir(prefix = 'pleg-top-test-'): TempDir {
	const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
	return {
		dir,
		write(name, text, mode) {
			const file = path.join(dir, name);
			fs.mkdirSync(path.dirname(file), {recursive: true});
			fs.writeFileSync(file, text, mode === undefined ? undefined : {mode});
			return file;
		},
		remove() {
			fs.rmSync(dir, {recursive: true, force: true});
		},
	};
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A YAML scalar that is always safe: JSON strings are valid YAML. */
const q = (value: string) => JSON.stringify(value);

export type ClusterSpec = {
	name: string;
	server: string;
	/** certificate-authority-data (PEM text, encoded here). */
	caData?: string;
	/** certificate-authority path as written (relative paths allowed). */
	caFile?: string;
	insecure?: boolean;
	tlsServerName?: string;
	/** proxy-url: the cluster is reached through this HTTP(S) or SOCKS proxy. */
	proxyUrl?: string;
};

export type UserSpec = {
	name: string;
	token?: string;
	tokenFile?: string;
	certData?: string;
	keyData?: string;
	certFile?: string;
	keyFile?: string;
	/** Basic auth: username and password. */
	username?: string;
	password?: string;
	exec?: {command: string; args?: string[]; apiVersion?: string; env?: Array<{name: string; value: string}>; installHint?: string};
};

type ContextSpec = {name: string; cluster: string; user: string};

export type KubeconfigSpec = {
	clusters?: ClusterSpec[];
	users?: UserSpec[];
	contexts?: ContextSpec[];
	currentContext?: string;
};

function clusterYaml(cluster: ClusterSpec): string {
	const lines = [`- name: ${q(cluster.name)}`, '  cluster:', `    server: ${q(cluster.server)}`];
	if (cluster.caData !== undefined) {
		lines.push(`    certificate-authority-data: ${base64(cluster.caData)}`);
	}

	if (cluster.caFile !== undefined) {
		lines.push(`    certificate-authority: ${q(cluster.caFile)}`);
	}

	if (cluster.insecure) {
		lines.push('    insecure-skip-tls-verify: true');
	}

	if (cluster.tlsServerName !== undefined) {
		lines.push(`    tls-server-name: ${q(cluster.tlsServerName)}`);
	}

	if (cluster.proxyUrl !== undefined) {
		lines.push(`    proxy-url: ${q(cluster.proxyUrl)}`);
	}

	return lines.join('\n');
}

function execYaml(exec: NonNullable<UserSpec['exec']>): string[] {
	const lines = [
		'    exec:',
		`      apiVersion: ${exec.apiVersion ?? 'client.authentication.k8s.io/v1'}`,
		`      command: ${q(exec.command)}`,
		'      interactiveMode: Never',
	];
	if (exec.args) {
		lines.push('      args:', ...exec.args.map((arg) => `      - ${q(arg)}`));
	}

	if (exec.env) {
		lines.push('      env:', ...exec.env.flatMap((entry) => [`      - name: ${q(entry.name)}`, `        value: ${q(entry.value)}`]));
	}

	if (exec.installHint) {
		lines.push(`      installHint: ${q(exec.installHint)}`);
	}

	return lines;
}

function userYaml(user: UserSpec): string {
	const lines = [`- name: ${q(user.name)}`, '  user:'];
	const fields: Array<[string, string | undefined]> = [
		['token', user.token],
		['tokenFile', user.tokenFile],
		['client-certificate-data', user.certData === undefined ? undefined : base64(user.certData)],
		['client-key-data', user.keyData === undefined ? undefined : base64(user.keyData)],
		['client-certificate', user.certFile],
		['client-key', user.keyFile],
		['username', user.username],
		['password', user.password],
	];
	for (const [key, value] of fields) {
		if (value !== undefined) {
			lines.push(`    ${key}: ${q(value)}`);
		}
	}

	if (user.exec) {
		lines.push(...execYaml(user.exec));
	}

	if (lines.length === 2) {
		lines[1] = '  user: {}';
	}

	return lines.join('\n');
}

/** kubeconfig YAML text for a spec. */
export function kubeconfigYaml(spec: KubeconfigSpec): string {
	const section = (name: string, items: string[]) => (items.length === 0 ? `${name}: []` : `${name}:\n${items.join('\n')}`);
	const contexts = (spec.contexts ?? []).map(
		(context) => `- name: ${q(context.name)}\n  context:\n    cluster: ${q(context.cluster)}\n    user: ${q(context.user)}`,
	);
	return [
		'apiVersion: v1',
		'kind: Config',
		section('clusters', (spec.clusters ?? []).map(clusterYaml)),
		section('users', (spec.users ?? []).map(userYaml)),
		section('contexts', contexts),
		...(spec.currentContext === undefined ? [] : [`current-context: ${q(spec.currentContext)}`]),
		'',
	].join('\n');
}

/** A one-context kubeconfig for `server` with the test CA (by data) and the given user. */
export function singleContext(server: string, user: UserSpec, cluster: Partial<ClusterSpec> = {}): KubeconfigSpec {
	return {
		clusters: [{name: 'fake', server, caData: testTls.caCert, ...cluster}],
		users: [user],
		contexts: [{name: 'fake-ctx', cluster: cluster.name ?? 'fake', user: user.name}],
		currentContext: 'fake-ctx',
	};
}

export type PluginOptions = {
	/** Token to print in the ExecCredential. */
	token?: string;
	/** PEM client certificate and key to print instead of (or with) a token. */
	clientCertificate?: {cert: string; key: string};
	/** ExecCredential apiVersion. @default client.authentication.k8s.io/v1 */
	apiVersion?: string;
	/** status.expirationTimestamp; omitted when undefined. */
	expirationTimestamp?: string;
	/** Appends one line per run to this file, so tests can count runs. */
	countFile?: string;
};

/** An executable exec credential plugin (node script with a shebang) that prints an ExecCredential. */
export function writeExecPlugin(temp: TempDir, name: string, options: PluginOptions): string {
	const status: Record<string, string> = {};
	if (options.token !== undefined) {
		status['token'] = options.token;
	}

	if (options.clientCertificate !== undefined) {
		status['clientCertificateData'] = options.clientCertificate.cert;
		status['clientKeyData'] = options.clientCertificate.key;
	}

	if (options.expirationTimestamp !== undefined) {
		status['expirationTimestamp'] = options.expirationTimestamp;
	}

	const credential = {
		kind: 'ExecCredential',
		apiVersion: options.apiVersion ?? 'client.authentication.k8s.io/v1',
		spec: {interactive: false},
		status,
	};
	const count = options.countFile === undefined ? '' : `require('node:fs').appendFileSync(${q(options.countFile)}, 'run\\n');\n`;
	const script = `#!${process.execPath}\n${count}process.stdout.write(${q(JSON.stringify(credential))});\n`;
	return temp.write(name, script, 0o755);
}

/** A plugin that writes `stderr` and exits 1, like an SSO helper whose refresh token expired. */
export function writeFailingPlugin(temp: TempDir, name: string, stderr: string): string {
	const script = `#!${process.execPath}\nprocess.stderr.write(${q(stderr)});\nprocess.exit(1);\n`;
	return temp.write(name, script, 0o755);
}

/** A plugin that exits 0 but prints `stdout` (e.g. a bare token instead of an ExecCredential). */
export function writeGarbagePlugin(temp: TempDir, name: string, stdout: string): string {
	const script = `#!${process.execPath}\nprocess.stdout.write(${q(stdout)});\n`;
	return temp.write(name, script, 0o755);
}

/** A word for sh, whatever it holds. */
const sh = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * A plugin that hangs, ignoring SIGTERM, like an SSO helper waiting for a browser: always, or with `hangFile` only
 * while that file exists, printing until then an ExecCredential for `token` that lapses as it is printed (so each
 * request asks again). Each run appends "run <pid>" to `runsFile`. A shell script: it starts in milliseconds.
 */
export function writeHangingPlugin(temp: TempDir, name: string, options: {runsFile: string; token?: string; hangFile?: string}): string {
	const runs = sh(options.runsFile);
	const credential = `{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"token":"%s","expirationTimestamp":"%s"}}`;
	const lines = [
		'#!/bin/sh',
		`echo "run $$" >> ${runs}`,
		options.hangFile === undefined ? 'if false; then' : `if [ ! -e ${sh(options.hangFile)} ]; then`,
		`  printf ${sh(credential)} ${sh(options.token ?? '')} "$(date -u +%Y-%m-%dT%H:%M:%SZ)"`,
		'  exit 0',
		'fi',
		"trap '' TERM",
		'while :; do sleep 1; done',
	];
	return temp.write(name, `${lines.join('\n')}\n`, 0o755);
}

/** The pids that `runsFile` (writeHangingPlugin) recorded, one per run. */
export function pluginRuns(runsFile: string): number[] {
	return fs.existsSync(runsFile) ? [...fs.readFileSync(runsFile, 'utf8').matchAll(/^run (\d+)$/gm)].map((match) => Number(match[1])) : [];
}

/** Waits for process `pid` to be gone (a SIGKILLed child goes when it is reaped); fails if it is still there after 20 s. */
export async function processGone(pid: number): Promise<void> {
	const gone = () => {
		try {
			process.kill(pid, 0);
			return false;
		} catch {
			return true;
		}
	};

	await until(gone, `process ${pid} to be gone`);
}
