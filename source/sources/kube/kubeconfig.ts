// kubeconfig loaded as kubectl loads it (client-go's clientcmd loading rules: KUBECONFIG merged first wins), then handed to @kubernetes/client-node for auth/TLS.
// client-node's own loadFromDefault differs: it throws on repeated names, takes current-context from the last
// file, throws on a missing file in KUBECONFIG, and silently falls back to in-cluster or http://localhost:8080.
import fs from 'node:fs';
import path from 'node:path';
// By the package's public name: the build aliases it to its config module (scripts/build.mjs), without the generated API.
import {KubeConfig, type Cluster, type Context, type User} from '@kubernetes/client-node';
import type {KubectlTarget} from '../../domain/incident/next-steps.js';
import {sourceFailure} from '../failure.js';
import {proxyFromEnvironment, shownProxy} from '../http/proxy-env.js';
import {mergeKubeconfigs, parseKubeconfigFile, type Entry, type MergedKubeconfig, type ParsedFile} from './kubeconfig-merge.js';
import {TokenFileAuth, tokenFileProviderName} from './token-file-auth.js';

export type KubeconfigOptions = {
	/** --kubeconfig: only this file, no merging. */
	kubeconfig?: string;
	/** --context: overrides current-context. */
	context?: string;
	env: NodeJS.ProcessEnv;
	homeDir: string;
	/** Where a pod's service account is mounted (tests point it elsewhere). */
	serviceAccountDir?: string;
};

/** Where the kubelet mounts a pod's service account token and the cluster's CA. */
const podServiceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export type LoadedKubeconfig = {
	/** client-node object built with loadFromOptions from the merged config, current context set. */
	kubeConfig: KubeConfig;
	contextName: string;
	clusterName: string;
	/** clusters[].cluster.server without a trailing slash, e.g. "https://10.0.0.1:6443". */
	server: string;
	userName: string;
	/** Every file looked at, in order (including ones that did not exist). */
	filesTried: string[];
	/** The file that defined the context, the cluster and the user (first one wins). */
	origins: {context: string; cluster: string; user: string};
	/** No kubeconfig: the pod's service account, as client-go's in-cluster config (there is no context to name in a command). */
	inCluster: boolean;
	/** --kubeconfig as given, when it was: pasted kubectl commands carry it (KUBECONFIG and ~/.kube/config kubectl finds alone). */
	kubeconfigFlag?: string;
	/** The proxy requests to the server go through (the cluster's proxy-url, else the environment's); absent: none. */
	proxy?: ProxyUsed;
};

/** A proxy in use: its URL (credentials and all: it is used, never shown) and how messages name it, without credentials. */
type ProxyUsed = {url: string; said: string};

/** Where a pasted kubectl command must go to reach what pleg-top reached: --kubeconfig when given, the context used. */
export function kubectlTargetOf(loaded: LoadedKubeconfig): KubectlTarget {
	// In a pod, kubectl takes the same service account by itself: there is no context to name.
	if (loaded.inCluster) return {};
	return {kubeconfig: loaded.kubeconfigFlag, context: loaded.contextName};
}

type Candidates = {files: string[]; required: boolean; how: string};

function candidateFiles(options: KubeconfigOptions): Candidates {
	if (options.kubeconfig !== undefined && options.kubeconfig !== '') {
		return {files: [options.kubeconfig], required: true, how: '--kubeconfig'};
	}

	const list = options.env['KUBECONFIG'];
	if (list !== undefined && list !== '') {
		const files = list.split(path.delimiter).filter((entry) => entry !== '');
		if (files.length > 0) {
			return {files, required: false, how: 'KUBECONFIG'};
		}
	}

	return {files: [path.join(options.homeDir, '.kube', 'config')], required: false, how: 'default'};
}

const pointAtOne = 'point pleg-top at a kubeconfig with --kubeconfig FILE or KUBECONFIG=FILE[:FILE...]';

function noConfigFailure(tried: string[]) {
	return sourceFailure('config', 'no kubeconfig found', [
		`files tried: ${tried.join(', ')}`,
		pointAtOne,
		'in a pod, pleg-top uses its service account when KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are set and its token is mounted; it never falls back to http://localhost:8080',
	]);
}

function nameList(names: Iterable<string>): string {
	const list = [...names];
	return list.length === 0 ? '(none)' : list.join(', ');
}

function chooseContext(merged: MergedKubeconfig, options: KubeconfigOptions): Entry {
	const files = merged.filesLoaded.join(', ');
	const name = options.context !== undefined && options.context !== '' ? options.context : merged.currentContext?.name;
	if (name === undefined) {
		throw sourceFailure('config', 'no context chosen: current-context is not set and --context was not given', [
			`files read: ${files}`,
			`contexts that exist: ${nameList(merged.contexts.keys())}`,
			'pick one with --context NAME (or kubectl config use-context NAME)',
		]);
	}

	const context = merged.contexts.get(name);
	if (context === undefined) {
		const where = options.context ? '--context' : `current-context in ${merged.currentContext?.file ?? files}`;
		throw sourceFailure('config', `context "${name}" not found (from ${where})`, [
			`files read: ${files}`,
			`contexts that exist: ${nameList(merged.contexts.keys())}`,
		]);
	}

	return context;
}

function stringField(body: Record<string, unknown>, field: string): string | undefined {
	const value = body[field];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function referenced(merged: MergedKubeconfig, context: Entry, kind: 'cluster' | 'user'): Entry {
	const name = stringField(context.body, kind);
	const where = `context "${context.name}" in ${context.file}`;
	if (name === undefined) {
		throw sourceFailure('config', `${where} names no ${kind}`, [`files read: ${merged.filesLoaded.join(', ')}`]);
	}

	const entry = (kind === 'cluster' ? merged.clusters : merged.users).get(name);
	if (entry === undefined) {
		throw sourceFailure('config', `${kind} "${name}" of ${where} is not defined`, [
			`files read: ${merged.filesLoaded.join(', ')}`,
			`${kind}s that exist: ${nameList((kind === 'cluster' ? merged.clusters : merged.users).keys())}`,
		]);
	}

	return entry;
}

function toCluster(entry: Entry): Cluster {
	const body = entry.body;
	return {
		name: entry.name,
		server: (stringField(body, 'server') ?? '').replace(/\/$/, ''),
		caData: stringField(body, 'certificate-authority-data'),
		caFile: stringField(body, 'certificate-authority'),
		skipTLSVerify: body['insecure-skip-tls-verify'] === true,
		tlsServerName: stringField(body, 'tls-server-name'),
		proxyUrl: stringField(body, 'proxy-url'),
	};
}

function toUser(entry: Entry): User {
	const body = entry.body;
	const tokenFile = stringField(body, 'tokenFile');
	const authProvider =
		body['auth-provider'] ?? (tokenFile === undefined ? undefined : {name: tokenFileProviderName, config: {path: tokenFile}});
	return {
		name: entry.name,
		token: stringField(body, 'token'),
		certData: stringField(body, 'client-certificate-data'),
		certFile: stringField(body, 'client-certificate'),
		keyData: stringField(body, 'client-key-data'),
		keyFile: stringField(body, 'client-key'),
		exec: body['exec'] ?? undefined,
		authProvider,
		username: stringField(body, 'username'),
		password: stringField(body, 'password'),
		impersonateUser: stringField(body, 'as'),
	};
}

function toContext(entry: Entry): Context {
	return {
		name: entry.name,
		cluster: stringField(entry.body, 'cluster') ?? '',
		user: stringField(entry.body, 'user') ?? '',
		namespace: stringField(entry.body, 'namespace'),
	};
}

/** A client-node KubeConfig from already-merged objects, with pleg-top's tokenFile authenticator added. */
export function buildKubeConfig(parts: {clusters: Cluster[]; users: User[]; contexts: Context[]; currentContext: string}): KubeConfig {
	const kubeConfig = new KubeConfig();
	kubeConfig.addAuthenticator(new TokenFileAuth());
	kubeConfig.loadFromOptions({...parts});
	return kubeConfig;
}

function checkServer(cluster: Cluster, entry: Entry): void {
	let url: URL | undefined;
	try {
		url = new URL(cluster.server);
	} catch {
		// Not a URL: said below with the other servers pleg-top cannot use.
	}

	if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
		const shown = cluster.server === '' ? 'no server' : `server "${cluster.server}", which is not an http(s) URL`;
		throw sourceFailure('config', `cluster "${entry.name}" in ${entry.file} has ${shown}`, [
			`set clusters[].cluster.server, e.g. https://10.0.0.1:6443`,
		]);
	}
}

/**
 * client-go's in-cluster config, taken as kubectl takes it: only when no kubeconfig was found and neither
 * --kubeconfig nor --context was given, the service host and port are in the environment and the token is mounted.
 * The token is read on every use (bound tokens rotate); without ca.crt the system's roots are trusted, as client-go does.
 */
function inClusterConfig(options: KubeconfigOptions, candidates: Candidates): LoadedKubeconfig | null {
	const host = options.env['KUBERNETES_SERVICE_HOST'];
	const port = options.env['KUBERNETES_SERVICE_PORT'];
	if (candidates.required || options.context || !host || !port) return null;
	const dir = options.serviceAccountDir ?? podServiceAccountDir;
	const tokenFile = path.join(dir, 'token');
	if (!fs.statSync(tokenFile, {throwIfNoEntry: false})?.isFile()) return null;
	const caFile = path.join(dir, 'ca.crt');
	const name = 'in-cluster';
	const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
	const proxy = environmentProxy(options.env, server);
	const kubeConfig = buildKubeConfig({
		clusters: [{name, server, caFile: fs.existsSync(caFile) ? caFile : undefined, skipTLSVerify: false, proxyUrl: proxy?.url}],
		users: [{name, authProvider: {name: tokenFileProviderName, config: {path: tokenFile}}}],
		contexts: [{name, cluster: name, user: name}],
		currentContext: name,
	});
	const origin = `the service account mounted at ${dir}`;
	return {
		...(proxy ? {proxy} : {}),
		kubeConfig,
		contextName: name,
		clusterName: name,
		server,
		userName: name,
		filesTried: [],
		origins: {context: origin, cluster: origin, user: origin},
		inCluster: true,
	};
}

/** Loads the kubeconfig as kubectl would and selects the context, or the pod's service account. Throws SourceFailure kind 'config'. */
export function loadKubeconfig(options: KubeconfigOptions): LoadedKubeconfig {
	const candidates = candidateFiles(options);
	const filesTried = candidates.files.map((file) => path.resolve(file));
	const parsed = candidates.files
		.map((file) => parseKubeconfigFile(file, candidates.required))
		.filter((file): file is ParsedFile => file !== null);
	const merged = parsed.length === 0 ? null : mergeKubeconfigs(parsed);
	if (merged === null || (merged.contexts.size === 0 && merged.clusters.size === 0 && merged.users.size === 0)) {
		const inCluster = inClusterConfig(options, candidates);
		if (inCluster) return inCluster;
		throw noConfigFailure(filesTried);
	}

	const context = chooseContext(merged, options);
	const clusterEntry = referenced(merged, context, 'cluster');
	const userEntry = referenced(merged, context, 'user');
	const cluster = toCluster(clusterEntry);
	checkServer(cluster, clusterEntry);
	const proxy = proxyOf(cluster, clusterEntry, options.env);
	const kubeConfig = buildKubeConfig({
		// The environment's proxy becomes the cluster's proxy-url: client-node then makes its agent, as for one written.
		clusters: [...merged.clusters.values()].map((entry) =>
			entry === clusterEntry ? {...cluster, proxyUrl: proxy?.url} : toCluster(entry),
		),
		users: [...merged.users.values()].map(toUser),
		contexts: [...merged.contexts.values()].map(toContext),
		currentContext: context.name,
	});
	return {
		kubeConfig,
		contextName: context.name,
		clusterName: clusterEntry.name,
		server: cluster.server,
		userName: userEntry.name,
		filesTried,
		origins: {context: context.file, cluster: clusterEntry.file, user: userEntry.file},
		inCluster: false,
		...(options.kubeconfig ? {kubeconfigFlag: options.kubeconfig} : {}),
		...(proxy ? {proxy} : {}),
	};
}

/**
 * The environment's proxy for `server` (HTTPS_PROXY, NO_PROXY ..., as kubectl reads them), or null. A value no
 * proxy can be made of is a config error: kubectl's requests fail with it, pleg-top's would go around it.
 */
function environmentProxy(env: NodeJS.ProcessEnv, server: string): ProxyUsed | null {
	const choice = proxyFromEnvironment(env, server);
	if ('invalid' in choice) {
		throw sourceFailure('config', `${choice.invalid.variable} cannot be used as a proxy: ${choice.invalid.reason}`, [
			`kubectl would fail the same way; fix ${choice.invalid.variable}, or exclude ${new URL(server).hostname} with NO_PROXY`,
		]);
	}

	return choice.proxy && {url: choice.proxy.url, said: `proxy ${shownProxy(choice.proxy.url)} from ${choice.proxy.variable}`};
}

/** The cluster's proxy-url when it has one (kubectl then ignores the environment), else the environment's. */
function proxyOf(cluster: Cluster, entry: Entry, env: NodeJS.ProcessEnv): ProxyUsed | null {
	if (cluster.proxyUrl) {
		return {url: cluster.proxyUrl, said: `proxy-url ${shownProxy(cluster.proxyUrl)} of cluster "${entry.name}" in ${entry.file}`};
	}

	return environmentProxy(env, cluster.server);
}
