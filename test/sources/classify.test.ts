// Error classification for cases a loopback server cannot produce on demand (DNS, expired certificates...).
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {KubeConfig} from '@kubernetes/client-node';
import {classifyRequestError, readStatus, type FailureContext} from '../../source/sources/http/classify.js';
import {RequestTimeoutError} from '../../source/sources/http/https-request.js';
import type {LoadedKubeconfig} from '../../source/sources/kube/kubeconfig.js';

function context(): FailureContext {
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
	};
	return {loaded, node: 'worker-1', target: 'metrics', path: '/api/v1/nodes/worker-1/proxy/metrics', timeoutMs: 10_000, secrets: ['tok-secret-1234']};
}

const withCode = (code: string, extra: Record<string, string> = {}) => Object.assign(new Error(`failed ${code}`), {code, ...extra});

describe('classifyRequestError', () => {
	test('DNS failures name the host', () => {
		assert.equal(classifyRequestError(withCode('ENOTFOUND'), context()).failure.summary, 'cannot reach https://api.prod.example:6443: DNS lookup of api.prod.example failed');
		assert.equal(classifyRequestError(withCode('EAI_AGAIN'), context()).failure.summary, 'cannot reach https://api.prod.example:6443: DNS lookup of api.prod.example failed (temporary failure)');
	});

	test('socket errors say what happened in words', () => {
		const summaries = ['ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].map(code => classifyRequestError(withCode(code), context()).failure.summary);
		assert.deepEqual(summaries, [
			'cannot reach https://api.prod.example:6443: connection timed out',
			'cannot reach https://api.prod.example:6443: connection reset',
			'cannot reach https://api.prod.example:6443: no route to host',
		]);
	});

	test('the request timeout reads in seconds', () => {
		const failure = classifyRequestError(new RequestTimeoutError(10_000), context()).failure;
		assert.deepEqual(failure, {kind: 'timeout', summary: 'no answer from https://api.prod.example:6443 within 10s', details: ['request: GET /api/v1/nodes/worker-1/proxy/metrics']});
		assert.equal(classifyRequestError(new RequestTimeoutError(1500), context()).failure.summary, 'no answer from https://api.prod.example:6443 within 1.5s');
	});

	test('an expired server certificate is tls and names the CA setting', () => {
		const failure = classifyRequestError(withCode('CERT_HAS_EXPIRED'), context()).failure;
		assert.deepEqual(failure, {
			kind: 'tls',
			summary: 'the certificate of https://api.prod.example:6443 is not trusted: it has expired',
			details: [
				'trust comes from certificate-authority-data of cluster "prod" in /home/u/.kube/config',
				'TLS: CERT_HAS_EXPIRED',
				'pleg-top does not switch certificate verification off: give the cluster\'s CA in the kubeconfig',
			],
		});
	});

	test('a direct self-signed server certificate', () => {
		assert.equal(classifyRequestError(withCode('DEPTH_ZERO_SELF_SIGNED_CERT'), context()).failure.summary, 'the certificate of https://api.prod.example:6443 is not trusted: it is self-signed');
	});

	test('unusable key material is a config problem (exit 2), not a server problem', () => {
		const failure = classifyRequestError(withCode('ERR_OSSL_X509_KEY_VALUES_MISMATCH'), context()).failure;
		assert.equal(failure.kind, 'config');
		assert.equal(failure.summary, 'the certificates or keys for context "prod-ctx" cannot be used');
	});

	test('an unknown error keeps its message, redacted', () => {
		const failure = classifyRequestError(new Error('odd failure with tok-secret-1234'), context()).failure;
		assert.equal(failure.summary, 'cannot reach https://api.prod.example:6443: odd failure with [redacted]');
	});
});

describe('readStatus', () => {
	test('reads a kube-apiserver Status body', () => {
		const body = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"nodes"},"code":404}';
		assert.deepEqual(readStatus(body), {message: 'nodes "x" not found', reason: 'NotFound', code: 404, kind: 'nodes'});
	});

	test('anything else is null', () => {
		assert.equal(readStatus('404 page not found'), null);
		assert.equal(readStatus('{"kind":"Node"}'), null);
	});
});
