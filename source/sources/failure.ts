import type {Failure, FailureKind} from '../domain/types.js';
import {visibleLine} from '../domain/text/untrusted-text.js';

/**
 * A failure whose every line is visible text: summaries and details quote what servers and plugins said (Status
 * messages, bodies, stderr), and every one of them passes here, so no error line or JSON `error` carries a control.
 */
export function visibleFailure(failure: Failure): Failure {
	return {...failure, summary: visibleLine(failure.summary), details: failure.details.map(visibleLine)};
}

/** A source failure in the user's terms; `failure` is what the status line and reports show (visible text only). */
export class SourceFailure extends Error {
	readonly failure: Failure;

	constructor(failure: Failure) {
		const visible = visibleFailure(failure);
		super([visible.summary, ...visible.details].join('\n'));
		this.name = 'SourceFailure';
		this.failure = visible;
	}
}

export function sourceFailure(kind: FailureKind, summary: string, details: string[] = [], retryAfterSeconds?: number): SourceFailure {
	return new SourceFailure(retryAfterSeconds === undefined ? {kind, summary, details} : {kind, summary, details, retryAfterSeconds});
}

/** A broken configuration is a usage problem (2); everything found while talking to the cluster is 3. */
export function exitCodeFor(kind: FailureKind): 2 | 3 {
	return kind === 'config' ? 2 : 3;
}

const redacted = '[redacted]';

// Credential shapes that must never reach the screen even when we do not know the value:
// an Authorization header echoed back, a long bearer token, a PEM private key, a JWT (service-account
// and OIDC tokens). Each pattern maps a match to its replacement.
const credentialPatterns: Array<[RegExp, string]> = [
	[/(Authorization:\s*)(Bearer|Basic)\s+\S+/gi, '$1$2 [redacted]'],
	// 16+ characters so prose such as "Bearer token" is left alone.
	[/\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g, 'Bearer [redacted]'],
	[/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[redacted]'],
	[/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[redacted]'],
];

/**
 * Removes every known secret (tokens, passwords, key material) and anything shaped like a credential
 * from text that came from a server or a plugin. Secrets shorter than 4 characters are ignored:
 * replacing "a" everywhere would mangle the message without protecting anything.
 */
export function redact(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const secret of secrets) {
		const trimmed = secret.trim();
		if (trimmed.length >= 4) {
			out = out.split(trimmed).join(redacted);
		}
	}

	for (const [pattern, replacement] of credentialPatterns) {
		out = out.replace(pattern, replacement);
	}

	return out;
}

/** Redacts a whole Failure (summary and every detail line). */
export function redactFailure(failure: Failure, secrets: readonly string[]): Failure {
	return {
		...failure,
		summary: redact(failure.summary, secrets),
		details: failure.details.map((line) => redact(line, secrets)),
	};
}
