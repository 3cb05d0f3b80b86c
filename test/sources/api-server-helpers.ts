// Shared set-up for the api-server source tests (not a test file itself).
import assert from 'node:assert/strict';
import {createApiServerSource, type ApiServerSource} from '../../source/sources/api-server.js';
import {SourceFailure} from '../../source/sources/failure.js';
import {loadKubeconfig, type LoadedKubeconfig} from '../../source/sources/kube/kubeconfig.js';
import type {Failure} from '../../source/domain/types.js';
import {kubeconfigYaml, type KubeconfigSpec, type TempDir} from '../helpers/kubeconfig-files.js';

export type Harness = {
	/** Writes the kubeconfig, loads it and creates a source for `node`. */
	source(
		spec: KubeconfigSpec,
		options?: {node?: string; timeoutMs?: number; credentialTtlMs?: number},
	): {source: ApiServerSource; file: string; loaded: LoadedKubeconfig};
	/** Awaits `promise`, expects a SourceFailure, records it for the credential scan and returns it. */
	failure(promise: Promise<unknown>): Promise<Failure>;
	/** Every failure seen so far. */
	failures: Failure[];
	closeAll(): void;
};

export function makeHarness(temp: TempDir): Harness {
	const sources: ApiServerSource[] = [];
	const failures: Failure[] = [];
	let count = 0;
	return {
		source(spec, options = {}) {
			const file = temp.write(`kubeconfig-${++count}.yaml`, kubeconfigYaml(spec));
			// Found through KUBECONFIG, as kubectl would find it: the hints' kubectl lines then need no --kubeconfig.
			const loaded = loadKubeconfig({kubeconfig: undefined, env: {KUBECONFIG: file}, homeDir: temp.dir});
			const source = createApiServerSource({
				loaded,
				node: options.node ?? 'worker-1',
				timeoutMs: options.timeoutMs ?? 5000,
				credentialTtlMs: options.credentialTtlMs,
				now: Date.now,
			});
			sources.push(source);
			return {source, file, loaded};
		},
		async failure(promise) {
			try {
				await promise;
			} catch (error) {
				assert.ok(error instanceof SourceFailure, `expected SourceFailure, got ${String((error as Error)?.stack ?? error)}`);
				failures.push(error.failure);
				return error.failure;
			}

			assert.fail('expected the call to fail');
		},
		failures,
		closeAll() {
			for (const source of sources) {
				source.close();
			}
		},
	};
}

/** Asserts that no secret appears anywhere in any failure. */
export function assertNoSecrets(failures: Failure[], secrets: string[]): void {
	assert.ok(failures.length > 0, 'the scan needs failures to look at');
	const text = JSON.stringify(failures);
	for (const secret of secrets) {
		assert.equal(text.includes(secret), false, `a failure message contains the secret ${secret.slice(0, 6)}…`);
	}
}
