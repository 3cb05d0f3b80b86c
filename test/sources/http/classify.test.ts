// Error classification for cases a loopback server cannot produce on demand (DNS, expired certificates...),
// by the one classifier for the API server and for the servers named by a flag alike.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {KubeConfig} from '@kubernetes/client-node';
import {classifyRequestError, readStatus, type Peer} from '../../../source/sources/http/classify.js';
import {RequestTimeoutError} from '../../../source/sources/http/request-errors.js';
import type {LoadedKubeconfig} from '../../../source/sources/kube/kubeconfig.js';

function apiServer(): Peer {
	const kubeConfig = new KubeConfig();
	kubeConfig.loadFromOptions({
		clusters: [{name: 'prod', server: 'https://api.prod.example:6443', caData: 'Q0E=', skipTLSVerify: false}],
		users: [{name: 'admin', token: 'tok-secret-1234'}],
		contexts: [{name: 'prod-ctx', cluster: 'prod', user: 'admin'}],
		currentContext: 'prod-ctx',
	});
	const loaded: LoadedKubeconfig = {
		kubeConfig,
		contextName: 'prod-ctx',
		clusterName: 'prod',
		server: 'https://api.prod.example:6443',
		userName: 'admin',
		filesTried: ['/home/u/.kube/config'],
		origins: {context: '/home/u/.kube/config', cluster: '/home/u/.kube/config', user: '/home/u/.kube/config'},
		inCluster: false,
	};
	return {kind: 'api-server', url: loaded.server, loaded};
}

const metricsPath = '/api/v1/nodes/worker-1/proxy/metrics';
const classify = (error: unknown) => classifyRequestError(error, apiServer(), metricsPath, ['tok-secret-1234']);

const withCode = (code: string, extra: Record<string, string> = {}) => Object.assign(new Error(`failed ${code}`), {code, ...extra});

describe('classifyRequestError', () => {
	test('DNS failures name the host', () => {
		assert.equal(
			classify(withCode('ENOTFOUND')).failure.summary,
			'cannot reach https://api.prod.example:6443: DNS lookup of api.prod.example failed',
		);
		assert.equal(
			classify(withCode('EAI_AGAIN')).failure.summary,
			'cannot reach https://api.prod.example:6443: DNS lookup of api.prod.example failed (temporary failure)',
		);
	});

	test('socket errors say what happened in words', () => {
		const summaries = ['ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].map((code) => classify(withCode(code)).failure.summary);
		assert.deepEqual(summaries, [
			'cannot reach https://api.prod.example:6443: connection timed out',
			'cannot reach https://api.prod.example:6443: connection reset',
			'cannot reach https://api.prod.example:6443: no route to host',
		]);
	});

	test('the request timeout reads in seconds', () => {
		const failure = classify(new RequestTimeoutError(10_000)).failure;
		assert.deepEqual(failure, {
			kind: 'timeout',
			summary: 'no answer from https://api.prod.example:6443 within 10s',
			details: ['request: GET /api/v1/nodes/worker-1/proxy/metrics'],
		});
		assert.equal(classify(new RequestTimeoutError(1500)).failure.summary, 'no answer from https://api.prod.example:6443 within 1.5s');
	});

	test('an expired server certificate is tls and names the CA setting', () => {
		const failure = classify(withCode('CERT_HAS_EXPIRED')).failure;
		assert.deepEqual(failure, {
			kind: 'tls',
			summary: 'the certificate of https://api.prod.example:6443 is not trusted: it has expired',
			details: [
				'trust comes from certificate-authority-data of cluster "prod" in /home/u/.kube/config',
				'TLS: CERT_HAS_EXPIRED',
				"pleg-top does not switch certificate verification off: give the cluster's CA in the kubeconfig",
			],
		});
	});

	test('a direct self-signed server certificate', () => {
		assert.equal(
			classify(withCode('DEPTH_ZERO_SELF_SIGNED_CERT')).failure.summary,
			'the certificate of https://api.prod.example:6443 is not trusted: it is self-signed',
		);
	});

	test('unusable key material is a config problem (exit 2), not a server problem', () => {
		const failure = classify(withCode('ERR_OSSL_X509_KEY_VALUES_MISMATCH')).failure;
		assert.equal(failure.kind, 'config');
		assert.equal(failure.summary, 'the certificates or keys for context "prod-ctx" cannot be used');
	});

	test('an unknown error keeps its message, redacted', () => {
		const failure = classify(new Error('odd failure with tok-secret-1234')).failure;
		assert.equal(failure.summary, 'cannot reach https://api.prod.example:6443: odd failure with [redacted]');
	});
});

describe('the same classifier for a server named by a flag', () => {
	const kubelet: Peer = {kind: 'kubelet', url: 'https://10.0.0.5:10250', flag: '--kubelet-url', tokenFile: '/var/run/token'};
	const prometheus: Peer = {kind: 'prometheus', url: 'http://prometheus:9090', flag: '--prometheus'};

	test('a refused connection names what it is and the flag it came from', () => {
		assert.deepEqual(classifyRequestError(withCode('ECONNREFUSED'), kubelet, '/metrics', []).failure, {
			kind: 'network',
			summary: 'cannot reach the kubelet at https://10.0.0.5:10250: connection refused',
			details: ['the server comes from --kubelet-url', 'request: GET /metrics'],
		});
	});

	test("a timeout reads in Go's duration style, and a PromQL query string is cut in the message", () => {
		const path = `/api/v1/query?query=${encodeURIComponent('sum by (node, instance) (rate(kubelet_pleg_relist_duration_seconds_count[60s]))')}&time=1.000`;
		assert.deepEqual(classifyRequestError(new RequestTimeoutError(300), prometheus, path, []).failure, {
			kind: 'timeout',
			summary: 'no answer from Prometheus at http://prometheus:9090 within 300ms',
			details: ['request: GET /api/v1/query?…'],
		});
	});

	test("an untrusted certificate says how to trust it, not the kubeconfig's CA setting", () => {
		const failure = classifyRequestError(withCode('SELF_SIGNED_CERT_IN_CHAIN'), kubelet, '/metrics', []).failure;
		assert.equal(
			failure.summary,
			'the certificate of the kubelet at https://10.0.0.5:10250 is not trusted: it is not signed by the configured CA',
		);
		assert.deepEqual(failure.details, [
			"give the CA that signed the kubelet's certificate with --kubelet-ca FILE, or accept any certificate with --insecure-skip-tls-verify (then labelled TLS NOT VERIFIED)",
			'TLS: SELF_SIGNED_CERT_IN_CHAIN',
		]);
	});

	test('a certificate for another host names the flag to change', () => {
		const failure = classifyRequestError(
			withCode('ERR_TLS_CERT_ALTNAME_INVALID', {reason: "Host: 10.0.0.5. is not in the cert's altnames"}),
			kubelet,
			'/metrics',
			[],
		).failure;
		assert.equal(failure.summary, 'the certificate of the kubelet at https://10.0.0.5:10250 is not valid for host 10.0.0.5');
		assert.equal(failure.details[1], 'use a host name the certificate lists in --kubelet-url, or --insecure-skip-tls-verify');
	});
});

describe('readStatus', () => {
	test('reads a kube-apiserver Status body', () => {
		const body =
			'{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"nodes"},"code":404}';
		assert.deepEqual(readStatus(body), {message: 'nodes "x" not found', reason: 'NotFound', code: 404, kind: 'nodes'});
	});

	test('anything else is null', () => {
		assert.equal(readStatus('404 page not found'), null);
		assert.equal(readStatus('{"kind":"Node"}'), null);
	});
});
