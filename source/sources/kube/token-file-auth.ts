import fs from 'node:fs';
import type {KubeConfig} from '@kubernetes/client-node/dist/config.js';
import type {User} from '@kubernetes/client-node/dist/config_types.js';

/** client-node does not export its Authenticator interface; this is its shape. */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

/** The auth-provider name pleg-top gives a kubeconfig `tokenFile` user (no built-in authenticator claims it). */
export const tokenFileProviderName = 'pleg-top-token-file';

/**
 * Bearer token from `users[].user.tokenFile`, read on every use so a rotated (projected) token is picked
 * up, and trimmed: client-node's own FileAuth keeps the trailing newline, which makes an invalid header.
 */
export class TokenFileAuth implements Authenticator {
	isAuthProvider(user: User): boolean {
		return user.authProvider?.name === tokenFileProviderName;
	}

	async applyAuthentication(user: User, options: Parameters<Authenticator['applyAuthentication']>[1]): Promise<void> {
		const file = String(user.authProvider.config.path);
		const token = (await fs.promises.readFile(file, 'utf8')).trim();
		const headers = (options.headers ?? {}) as Record<string, string>;
		headers['Authorization'] = `Bearer ${token}`;
		options.headers = headers;
	}
}
