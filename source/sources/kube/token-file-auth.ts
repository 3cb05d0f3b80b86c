import fs from 'node:fs';
import type {OutgoingHttpHeaders} from 'node:http';
import type {KubeConfig, User} from '@kubernetes/client-node';

/** client-node does not export its Authenticator interface; this is its shape. */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

/** The auth-provider name pleg-top gives a kubeconfig `tokenFile` user (no built-in authenticator claims it). */
export const tokenFileProviderName = 'pleg-top-token-file';

/** A user's auth-provider, which client-node types as `any`: as read from the kubeconfig, so nothing is assumed. */
export type AuthProvider = {name?: unknown; config?: {path?: unknown}} | undefined;

/**
 * Bearer token from `users[].user.tokenFile`, read on every use so a rotated (projected) token is picked
 * up, and trimmed: client-node's own FileAuth keeps the trailing newline, which makes an invalid header.
 */
export class TokenFileAuth implements Authenticator {
	isAuthProvider(user: User): boolean {
		return (user.authProvider as AuthProvider)?.name === tokenFileProviderName; // client-node: any
	}

	// client-node passes https or WebSocket request options (whose types it does not ship): both carry headers.
	async applyAuthentication(user: User, options: {headers?: OutgoingHttpHeaders}): Promise<void> {
		const file = String((user.authProvider as AuthProvider)?.config?.path); // client-node: any
		const token = (await fs.promises.readFile(file, 'utf8')).trim();
		options.headers = {...options.headers, Authorization: `Bearer ${token}`};
	}
}
