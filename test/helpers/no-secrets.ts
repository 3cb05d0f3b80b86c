// One scan for credentials in everything pleg-top printed during a test file: no token, no client key, no
// exec plugin token may ever reach stdout, stderr, a JSON line or the screen.
import assert from 'node:assert/strict';
import {testTls} from './fake-api-server.js';

/** The body lines of a PEM block (the base64 between BEGIN and END): any one of them would leak the key. */
function pemBodyLines(pem: string): string[] {
	return pem.split('\n').filter((line) => line.length >= 40 && !line.startsWith('-----'));
}

/** The credentials the integration tests hand to pleg-top, by name. */
export function integrationSecrets(tokens: Record<string, string>): Record<string, string> {
	const secrets: Record<string, string> = {...tokens};
	for (const [index, line] of pemBodyLines(testTls.clientKey).entries()) {
		secrets[`client key line ${index + 1}`] = line;
	}

	return secrets;
}

/**
 * Fails when any secret appears in any of `outputs`. `outputs` must not be empty (a scan of nothing
 * proves nothing). The message names the secret, never prints it.
 */
export function assertNoSecretsIn(outputs: readonly string[], secrets: Record<string, string>): void {
	const text = outputs.join('\n');
	assert.ok(text.length > 0, 'the secret scan needs captured output to look at');
	for (const [name, secret] of Object.entries(secrets)) {
		assert.equal(text.includes(secret), false, `the ${name} appears in pleg-top's output`);
	}
}
