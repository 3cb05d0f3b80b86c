// The proxy from the environment, chosen as kubectl chooses it when the kubeconfig has no proxy-url: client-go
// takes Go's http.ProxyFromEnvironment (golang.org/x/net/http/httpproxy). HTTPS_PROXY for an https:// server,
// HTTP_PROXY for http://, each before its lower-case form (the first that is not empty); NO_PROXY (or no_proxy)
// lists hosts, domains, IPs and CIDRs to reach directly, each with an optional port; localhost and loopback
// addresses are never proxied.
import net from 'node:net';
import {domainToASCII} from 'node:url';

/** The proxy schemes Go's parseProxy takes as they are; any other value is read as host[:port] of an http proxy. */
const proxySchemes = new Set(['http:', 'https:', 'socks5:']);

/** A proxy for the server, and the variable that named it. */
type EnvProxy = {url: string; variable: string};

/** What the environment says for a server: a proxy, none, or a value no proxy can be made of (said, never used). */
export type EnvProxyChoice = {proxy: EnvProxy} | {proxy: null} | {invalid: {variable: string; reason: string}};

/** The first of `names` set to a non-empty value, with that value. */
function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): {variable: string; value: string} | null {
	for (const name of names) {
		const value = env[name];
		if (value !== undefined && value !== '') return {variable: name, value};
	}

	return null;
}

/**
 * A proxy value as Go's parseProxy reads it: a URL with http, https or socks5 kept as it is; anything else
 * (`proxy.corp:3128`, `10.0.0.1:3128`, `localhost`) is tried with http:// in front; a URL of another scheme is kept
 * and refused later. Null: not a URL at all.
 */
export function parseProxyValue(value: string): URL | null {
	let parsed: URL | null = null;
	try {
		parsed = new URL(value);
	} catch {
		// Not a URL as written: tried below with http:// in front.
	}

	if (parsed && proxySchemes.has(parsed.protocol)) return parsed;
	// `foo://host` names a scheme: Go keeps it (and its transport then refuses it) rather than read it as a host.
	if (parsed && value.includes('://')) return parsed;
	try {
		return new URL(`http://${value}`);
	} catch {
		return parsed;
	}
}

/** A proxy URL as messages show it: scheme, host and port, never the user and password it may carry. */
export function shownProxy(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}`;
	} catch {
		return '(not a URL)';
	}
}

/** The bytes of an IP address (4 or 16), IPv4-mapped IPv6 as IPv4 (Go's IP.Equal and Contains treat them alike). */
function ipBytes(text: string): number[] | null {
	const family = net.isIP(text);
	if (family === 4) return text.split('.').map(Number);
	if (family !== 6) return null;
	// Expand "::" and any dotted IPv4 tail into eight groups.
	const [dotted = null] = /\d+\.\d+\.\d+\.\d+$/.exec(text) ?? [];
	let hex = text;
	if (dotted !== null) {
		const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
		hex = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}

	const [head, tail] = hex.includes('::') ? hex.split('::') : [hex, null];
	const headGroups = head ? head.split(':') : [];
	const tailGroups = tail ? tail.split(':') : [];
	const groups = [...headGroups, ...Array.from({length: 8 - headGroups.length - tailGroups.length}, () => '0'), ...tailGroups];
	const bytes = groups.flatMap((group) => {
		const value = Number.parseInt(group, 16);
		return [value >> 8, value & 0xff];
	});
	const mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
	return mapped ? bytes.slice(12) : bytes;
}

function sameIp(a: number[], b: number[]): boolean {
	return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** Whether `ip` lies in `network`/`bits` (both the same family). */
function inCidr(ip: number[], network: number[], bits: number): boolean {
	if (ip.length !== network.length) return false;
	for (let bit = 0; bit < bits; bit++) {
		const mask = 0x80 >> (bit % 8);
		if (((ip[bit >> 3] ?? 0) & mask) !== ((network[bit >> 3] ?? 0) & mask)) return false;
	}

	return true;
}

function isLoopback(ip: number[]): boolean {
	return ip.length === 4 ? ip[0] === 127 : sameIp(ip, [...Array.from({length: 15}, () => 0), 1]);
}

/** A host (name or IP, lower case, without brackets) and port (as text) a request goes to. */
type Address = {host: string; port: string; ip: number[] | null};

type Matcher = (address: Address) => boolean;

/** One NO_PROXY entry as Go's httpproxy reads it; null for an entry it ignores (no host part). */
function entryMatcher(entry: string): Matcher | null {
	const [, prefix = '', length = ''] = /^(.+)\/(\d{1,3})$/.exec(entry) ?? [];
	const network = ipBytes(prefix);
	const bits = Number(length);
	if (network && bits <= network.length * 8) return ({ip}) => ip !== null && inCidr(ip, network, bits);

	// host:port, [IPv6]:port, or a bare host (an IPv6 address has colons of its own).
	const [, written = entry, port = ''] = /^(\[[^\]]*\]|[^:]*):(\d*)$/.exec(entry) ?? [];
	const host = written.startsWith('[') && written.endsWith(']') ? written.slice(1, -1) : written;
	if (host === '') return null;
	const portMatches = (address: Address) => port === '' || port === address.port;
	const ip = ipBytes(host);
	if (ip) return (address) => address.ip !== null && sameIp(ip, address.ip) && portMatches(address);

	// "foo.com" matches foo.com and every name under it; ".foo.com" and "*.foo.com" only the names under it.
	const domain = host.startsWith('*.') ? host.slice(1) : host;
	const matchHost = !domain.startsWith('.');
	const suffix = domainToASCII(matchHost ? `.${domain}` : domain) || (matchHost ? `.${domain}` : domain);
	return (address) => (address.host.endsWith(suffix) || (matchHost && address.host === suffix.slice(1))) && portMatches(address);
}

/** NO_PROXY as a predicate: true when `address` is reached directly. `*` alone matches every address. */
function noProxyMatcher(value: string): (address: Address) => boolean {
	const matchers: Matcher[] = [];
	for (const raw of value.split(',')) {
		const entry = raw.trim().toLowerCase();
		if (entry === '') continue;
		if (entry === '*') return () => true;
		const matcher = entryMatcher(entry);
		if (matcher) matchers.push(matcher);
	}

	return (address) => matchers.some((matcher) => matcher(address));
}

const defaultPorts: Record<string, string> = {'http:': '80', 'https:': '443'};

/** The address a request to `target` goes to, as Go's canonicalAddr gives it (IDNA host, the scheme's port). */
function addressOf(target: URL): Address {
	const bare = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
	return {host: bare, port: target.port || (defaultPorts[target.protocol] ?? ''), ip: ipBytes(bare)};
}

/** Whether a request to `target` goes through a proxy at all: localhost and loopback never, NO_PROXY's entries not. */
export function usesProxy(target: URL, noProxy: string): boolean {
	const address = addressOf(target);
	if (address.host === 'localhost' || (address.ip !== null && isLoopback(address.ip))) return false;
	return !noProxyMatcher(noProxy)(address);
}

/** The proxy the environment names for requests to `server` (an http(s) URL), as kubectl would use it. */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv, server: string): EnvProxyChoice {
	const target = new URL(server);
	const names = target.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'];
	const set = firstSet(env, names);
	if (set === null) return {proxy: null};
	if (!usesProxy(target, firstSet(env, ['NO_PROXY', 'no_proxy'])?.value ?? '')) return {proxy: null};
	const url = parseProxyValue(set.value);
	if (url === null) return {invalid: {variable: set.variable, reason: 'it is not a URL or host:port'}};
	if (!proxySchemes.has(url.protocol)) {
		return {invalid: {variable: set.variable, reason: `its scheme ${url.protocol.slice(0, -1)} is not http, https or socks5`}};
	}

	return {proxy: {url: url.href, variable: set.variable}};
}
