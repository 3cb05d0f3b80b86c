// --kubelet-url against a loopback HTTPS kubelet: bearer token from --token-file or the kubeconfig user,
// trust from --kubelet-ca, the cluster CA of the kubeconfig, or --insecure-skip-tls-verify (stated in the label
// and on screen), and each refusal in the user's terms.
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import React from 'react';
import {loadKubeconfig} from '../../source/sources/kube/kubeconfig.js';
import {createKubeletDirectSource, type KubeletDirectOptions} from '../../source/sources/kubelet-direct.js';
import {Dashboard} from '../../source/screen/dashboard.js';
import {testTls} from '../helpers/fake-api-server.js';
import {failureOf, startFakeKubelet, type FakeKubelet} from '../helpers/fake-kubelet.js';
import {makeFigures, okStatus, testNow} from '../helpers/figures.js';
import {kubeconfigYaml, makeTempDir, singleContext, type TempDir} from '../helpers/kubeconfig-files.js';
import {frameOf} from '../helpers/ui-frame.js';

const body = '# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1.7e+09\n';
const goodToken = 'metrics-reader-token-0123456789';
const proxyOnlyToken = 'proxy-only-token-0123456789abcdef';

let kubelet: FakeKubelet;
let temp: TempDir;
let caFile: string;

function source(options: Partial<KubeletDirectOptions>) {
	return createKubeletDirectSource({url: kubelet.url, insecureSkipTlsVerify: false, timeoutMs: 5000, now: Date.now, ...options});
}

before(async () => {
	temp = makeTempDir();
	caFile = temp.write('kubelet-ca.crt', testTls.caCert);
	kubelet = await startFakeKubelet({
		metrics: () => body,
		tokens: {[goodToken]: 'system:serviceaccount:monitoring:pleg-top', [proxyOnlyToken]: 'system:serviceaccount:default:proxy-user'},
		allowed: ['system:serviceaccount:monitoring:pleg-top'],
	});
});

after(async () => {
	await kubelet.close();
	temp.remove();
});

describe('direct kubelet source', () => {
	test('--token-file and --kubelet-ca: GET /metrics with the bearer token, node named after the URL host', async () => {
		const tokenFile = temp.write('token', `${goodToken}\n`);
		const direct = source({tokenFile, caFile});
		assert.equal(await direct.fetchMetrics(new AbortController().signal), body);
		assert.equal(direct.node, '127.0.0.1');
		assert.equal(direct.label, `127.0.0.1 via kubelet ${kubelet.url}`);
		// The trailing newline of the file is not sent (it would make an invalid header).
		assert.equal(kubelet.requests.at(-1)?.authorization, `Bearer ${goodToken}`);
		direct.close?.();
	});

	test('a token without get nodes/metrics: 403 names the verb and the subresource, never the token', async () => {
		const tokenFile = temp.write('token-proxy', proxyOnlyToken);
		const failure = await failureOf(source({tokenFile, caFile, node: 'worker-7'}).fetchMetrics(new AbortController().signal));
		assert.equal(failure.kind, 'forbidden');
		assert.equal(
			failure.summary,
			`the kubelet at ${kubelet.url} does not allow the token in --token-file ${tokenFile} to get nodes/metrics`,
		);
		assert.ok(
			failure.details.includes(
				'needed: get on nodes/metrics (ClusterRole rule: apiGroups [""], resources ["nodes/metrics"], verbs ["get"])',
			),
		);
		assert.match(
			failure.details[0]!,
			/^kubelet: 403 Forbidden: Forbidden \(user=system:serviceaccount:default:proxy-user, verb=get, resource=nodes, subresource\(s\)=\[metrics\]\)$/,
		);
		assert.ok(!JSON.stringify(failure).includes(proxyOnlyToken));
	});

	test('an unknown token: 401 unauthorized, with the webhook-authentication hint', async () => {
		const tokenFile = temp.write('token-bad', 'not-a-known-token-at-all');
		const failure = await failureOf(source({tokenFile, caFile}).fetchMetrics(new AbortController().signal));
		assert.equal(failure.kind, 'unauthorized');
		assert.match(failure.details[1]!, /authentication\.webhook\.enabled/);
	});

	test('a rotated token file is read again on the next request', async () => {
		const tokenFile = temp.write('token-rotating', 'not-a-known-token-at-all');
		const direct = source({tokenFile, caFile});
		await failureOf(direct.fetchMetrics(new AbortController().signal));
		temp.write('token-rotating', goodToken);
		assert.equal(await direct.fetchMetrics(new AbortController().signal), body);
		direct.close?.();
	});

	test('no --kubelet-ca and no kubeconfig: the self-signed chain is not trusted, and the message names both ways out', async () => {
		const tokenFile = temp.write('token-2', goodToken);
		const failure = await failureOf(source({tokenFile}).fetchMetrics(new AbortController().signal));
		assert.equal(failure.kind, 'tls');
		assert.match(failure.summary, /^the certificate of the kubelet at https:\/\/127\.0\.0\.1:\d+ is not trusted: /);
		assert.equal(
			failure.details[0],
			"give the CA that signed the kubelet's certificate with --kubelet-ca FILE, or accept any certificate with --insecure-skip-tls-verify (then labelled TLS NOT VERIFIED)",
		);
	});

	test('--insecure-skip-tls-verify: works without a CA and says so in the label and on screen', async () => {
		const tokenFile = temp.write('token-3', goodToken);
		const direct = source({tokenFile, insecureSkipTlsVerify: true, node: 'worker-3'});
		assert.equal(await direct.fetchMetrics(new AbortController().signal), body);
		assert.equal(direct.label, `worker-3 via kubelet ${kubelet.url} (TLS NOT VERIFIED)`);
		assert.deepEqual(direct.notes, [`TLS not verified: --insecure-skip-tls-verify accepts any certificate from ${kubelet.url}`]);
		const frame = frameOf(
			React.createElement(Dashboard, {
				figures: makeFigures({node: 'worker-3'}),
				status: okStatus(),
				history: [],
				node: null,
				sourceLabel: direct.label,
				intervalSeconds: 1,
				now: testNow,
				width: 120,
				height: 30,
				showHelp: false,
			}),
			120,
		);
		// The node named once in the header: the label without its leading node name.
		assert.match(
			frame.split('\n')[0]!,
			/^pleg-top · worker-3 · kubelet v1\.28\.0 · via kubelet https:\/\/127\.0\.0\.1:\d+ \(TLS NOT VERIFIED\)/,
		);
		direct.close?.();
	});

	test('429 with Retry-After: the kubelet asked to wait, carried on the failure for the back-off', async () => {
		const tokenFile = temp.write('token-429', goodToken);
		kubelet.setAnswer({status: 429, headers: {'Retry-After': '5'}, body: 'too many requests'});
		try {
			const failure = await failureOf(source({tokenFile, caFile}).fetchMetrics(new AbortController().signal));
			assert.equal(failure.summary, 'the kubelet asked to wait 5s (429 Too Many Requests to GET /metrics)');
			assert.equal(failure.details[0], 'kubelet: 429 Too Many Requests: too many requests');
			assert.equal(failure.retryAfterSeconds, 5);
		} finally {
			kubelet.setAnswer(null);
		}
	});

	test('without --token-file the kubeconfig user authenticates, and the cluster CA is trusted for the kubelet', async () => {
		const file = temp.write('kubeconfig.yaml', kubeconfigYaml(singleContext('https://127.0.0.1:1', {name: 'ops', token: goodToken})));
		const loaded = loadKubeconfig({kubeconfig: file, env: {}, homeDir: temp.dir});
		const direct = source({loaded});
		assert.equal(await direct.fetchMetrics(new AbortController().signal), body);
		assert.equal(kubelet.requests.at(-1)?.authorization, `Bearer ${goodToken}`);
		direct.close?.();
	});
});

describe('a kubelet on plain http://', () => {
	let plain: FakeKubelet;

	before(async () => {
		plain = await startFakeKubelet({
			metrics: () => body,
			tokens: {[goodToken]: 'system:serviceaccount:monitoring:pleg-top'},
			allowed: ['system:serviceaccount:monitoring:pleg-top'],
			plain: true,
		});
	});

	after(async () => {
		await plain.close();
	});

	test('with --token-file: the token still goes, and the label and the start-up note say it goes in clear', async () => {
		const tokenFile = temp.write('token-plain', goodToken);
		const direct = createKubeletDirectSource({url: plain.url, tokenFile, insecureSkipTlsVerify: false, timeoutMs: 5000, now: Date.now});
		assert.equal(await direct.fetchMetrics(new AbortController().signal), body);
		assert.equal(plain.requests.at(-1)?.authorization, `Bearer ${goodToken}`);
		assert.equal(direct.label, `127.0.0.1 via kubelet ${plain.url} (token sent without TLS)`);
		assert.deepEqual(direct.notes, [
			`token sent without TLS: ${plain.url} is plain http://, so the bearer token travels in clear text; use an https:// URL`,
		]);
		direct.close?.();
	});

	test('without any token there is nothing to warn about', async () => {
		const direct = createKubeletDirectSource({url: plain.url, insecureSkipTlsVerify: false, timeoutMs: 5000, now: Date.now});
		assert.equal(direct.label, `127.0.0.1 via kubelet ${plain.url}`);
		assert.deepEqual(direct.notes, []);
		// The kubelet refuses the anonymous request: 401, naming who pleg-top was.
		const failure = await failureOf(direct.fetchMetrics(new AbortController().signal));
		assert.equal(failure.summary, `the kubelet at ${plain.url} rejected an anonymous client`);
		direct.close?.();
	});
});
