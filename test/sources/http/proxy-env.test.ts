// The proxy from the environment, as Go's httpproxy chooses it (client-go, hence kubectl): the cases of
// golang.org/x/net/http/httpproxy's proxy_test.go, read against pleg-top's reading.
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {parseProxyValue, proxyFromEnvironment, shownProxy, usesProxy} from '../../../source/sources/http/proxy-env.js';
import {loadKubeconfig} from '../../../source/sources/kube/kubeconfig.js';
import {kubeconfigYaml, makeTempDir, singleContext} from '../../helpers/kubeconfig-files.js';

// Go's TestUseProxy list, each host asked for on port 80.
const noProxy =
	'foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64';
const useProxyCases: Array<[string, boolean]> = [
	// Never proxy localhost or a loopback address.
	['localhost', false],
	['127.0.0.1', false],
	['127.0.0.2', false],
	['[::1]', false],
	['[::2]', true],
	['192.168.1.1', false], // the exact IPv4
	['192.168.1.2', true], // ports differ
	['192.168.1.3', false], // the exact IPv4:port
	['192.168.1.4', true],
	['10.0.0.2', false], // in 10.0.0.0/30
	['[2001:db8::52:0:1]', false], // the exact IPv6
	['[2001:db8::52:0:2]', true], // ports differ
	['[2001:db8::52:0:3]', false], // the exact [IPv6]:port
	['[2002:db8:a::123]', false], // in the IPv6 CIDR
	['[fe80::424b:c8be:1643:a1b6]', true],
	['barbaz.net', true], // .barbaz.net: names under it only
	['www.barbaz.net', false],
	['foobar.com', false], // foobar.com: the name itself
	['www.foobar.com', false], // and names under it
	['foofoobar.com', true], // not a part of a label
	['baz.com', true],
	['localhost.net', true],
	['local.localhost', true],
	['barbarbaz.net', true],
	['wildcard.io', true], // *.wildcard.io: names under it only
	['nested.wildcard.io', false],
	['awildcard.io', true],
];

describe('NO_PROXY', () => {
	for (const [host, proxied] of useProxyCases) {
		test(`${host}:80 ${proxied ? 'goes through the proxy' : 'is reached directly'}`, () => {
			assert.equal(usesProxy(new URL(`http://${host}:80/`), noProxy), proxied);
		});
	}

	test('"*" reaches every host directly', () => {
		for (const [host] of useProxyCases) assert.equal(usesProxy(new URL(`http://${host}:80/`), '*'), false, host);
	});

	test('an entry without a host (":1") is ignored, not a match', () => {
		assert.equal(usesProxy(new URL('http://example.com:80/'), ':1'), true);
	});

	test("the scheme's port when the URL has none; upper case in an entry matches", () => {
		assert.equal(usesProxy(new URL('https://api.corp.example/'), 'API.corp.example:443'), false);
		assert.equal(usesProxy(new URL('https://api.corp.example/'), 'api.corp.example:6443'), true);
		assert.equal(usesProxy(new URL('https://api.corp.example:6443/'), ' api.corp.example:6443 ,other'), false);
	});

	test('an IDN entry matches the name in either form', () => {
		assert.equal(usesProxy(new URL('http://www.示例.com/'), '.示例.com'), false);
		assert.equal(usesProxy(new URL('http://www.示例.com/'), 'xn--fsq092h.com'), false);
		assert.equal(usesProxy(new URL('http://www.xn--fsq092h.com/'), '示例.com'), false);
	});

	test('an IPv4-mapped IPv6 address is the IPv4 address', () => {
		assert.equal(usesProxy(new URL('https://[::ffff:10.0.0.1]/'), '10.0.0.0/8'), false);
		assert.equal(usesProxy(new URL('https://[::ffff:127.0.0.1]/'), ''), false);
	});
});

describe('a proxy value', () => {
	// Go's TestProxyForURL: a value without a known scheme is host[:port] of an http proxy.
	const cases: Array<[string, string]> = [
		['127.0.0.1:8080', 'http://127.0.0.1:8080/'],
		['cache.corp.example.com:1234', 'http://cache.corp.example.com:1234/'],
		['cache.corp.example.com', 'http://cache.corp.example.com/'],
		['localhost', 'http://localhost/'],
		['https://cache.corp.example.com', 'https://cache.corp.example.com/'],
		['socks5://127.0.0.1', 'socks5://127.0.0.1'],
		['foo://host', 'foo://host'],
	];
	for (const [value, url] of cases) {
		test(`${value} is ${url}`, () => assert.equal(parseProxyValue(value)?.href, url));
	}

	test('shown without its user and password', () => {
		assert.equal(shownProxy('http://squid-user:s3cret@proxy.corp:3128/'), 'http://proxy.corp:3128');
	});
});

describe('the proxy for a server', () => {
	const server = 'https://api.corp.example:6443';
	test('HTTPS_PROXY for https://, before https_proxy; HTTP_PROXY is not used for it', () => {
		assert.deepEqual(proxyFromEnvironment({HTTPS_PROXY: 'proxy.corp:3128', https_proxy: 'other:1'}, server), {
			proxy: {url: 'http://proxy.corp:3128/', variable: 'HTTPS_PROXY'},
		});
		assert.deepEqual(proxyFromEnvironment({HTTPS_PROXY: '', https_proxy: 'other:1'}, server), {
			proxy: {url: 'http://other:1/', variable: 'https_proxy'},
		});
		assert.deepEqual(proxyFromEnvironment({HTTP_PROXY: 'proxy.corp:3128'}, server), {proxy: null});
	});

	test('HTTP_PROXY for http://, HTTPS_PROXY not', () => {
		assert.deepEqual(proxyFromEnvironment({HTTP_PROXY: 'h:1', HTTPS_PROXY: 's:2'}, 'http://api.corp.example:8080'), {
			proxy: {url: 'http://h:1/', variable: 'HTTP_PROXY'},
		});
	});

	test('NO_PROXY before no_proxy; a loopback server is never proxied', () => {
		assert.deepEqual(proxyFromEnvironment({HTTPS_PROXY: 'p:1', NO_PROXY: '.corp.example', no_proxy: 'nothing'}, server), {proxy: null});
		assert.deepEqual(proxyFromEnvironment({HTTPS_PROXY: 'p:1', NO_PROXY: '', no_proxy: 'corp.example'}, server), {proxy: null});
		assert.deepEqual(proxyFromEnvironment({HTTPS_PROXY: 'p:1'}, 'https://127.0.0.1:6443'), {proxy: null});
	});

	test('a scheme no proxy speaks is said, naming the variable', () => {
		assert.deepEqual(proxyFromEnvironment({https_proxy: 'ftp://p:1'}, server), {
			invalid: {variable: 'https_proxy', reason: 'its scheme ftp is not http, https or socks5'},
		});
	});
});

describe('the kubeconfig and the environment', () => {
	const temp = makeTempDir();
	after(() => temp.remove());
	const load = (file: string, proxyUrl: string | undefined, env: NodeJS.ProcessEnv) =>
		loadKubeconfig({
			kubeconfig: temp.write(file, kubeconfigYaml(singleContext('https://api.corp.example:6443', {name: 'u', token: 't'}, {proxyUrl}))),
			env,
			homeDir: temp.dir,
		});

	test("the cluster's proxy-url wins over HTTPS_PROXY, as in kubectl", () => {
		const loaded = load('both.yaml', 'http://written:1', {HTTPS_PROXY: 'http://env:2'});
		assert.equal(loaded.proxy?.url, 'http://written:1');
		assert.match(loaded.proxy?.said ?? '', /^proxy-url http:\/\/written:1 of cluster "fake" in /);
	});

	test("without proxy-url, HTTPS_PROXY becomes the cluster's proxy for client-node's agent; said without credentials", () => {
		const loaded = load('env.yaml', undefined, {HTTPS_PROXY: 'http://user:secret@env:2'});
		assert.equal(loaded.proxy?.said, 'proxy http://env:2 from HTTPS_PROXY');
		assert.equal(loaded.kubeConfig.getCurrentCluster()?.proxyUrl, 'http://user:secret@env:2/');
	});

	test('NO_PROXY naming the server: no proxy', () => {
		assert.equal(load('none.yaml', undefined, {HTTPS_PROXY: 'http://env:2', NO_PROXY: 'corp.example'}).proxy, undefined);
	});
});
