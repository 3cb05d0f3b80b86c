// What client-node's config.js and its auth modules take from five packages pleg-top needs only in rare setups
// (a proxy-url, an OIDC, Azure or GCP auth provider), each package loaded the first time one of its names is
// called or constructed. Imported as written, they are all evaluated at start: node-fetch brings whatwg-url and
// tr46 with its table of ~8,000 Unicode ranges, socks-proxy-agent brings socks and ip-address. Together 3.7 MB
// of live heap for as long as pleg-top runs (a heap snapshot of the live screen: 17.6 -> 13.9 MB).
//
// The packages are bundled in a file of their own, dist/client-node-extras.cjs (client-node-extras.ts), read with
// the bundle's `require` the first time one of these names is used. scripts/build.mjs lists the names and refuses
// a build whose importers take any other.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Extras from './client-node-extras.js';

type Callable = (...args: never[]) => unknown;

/**
 * A stand-in for a function or class that `load` returns, loading it when the stand-in is first called,
 * constructed or read from. `new` on the stand-in makes an instance of the real class (its prototype included).
 */
export function onDemand<T extends Callable | (abstract new (...args: never[]) => unknown)>(load: () => T): T {
	let loaded: T | undefined;
	const real = (): T => (loaded ??= load());
	// A plain function as the target: it can be both called and constructed, as a Proxy's target must be.
	return new Proxy(function () {} as unknown as T, {
		apply: (_target, thisArgument, args: unknown[]): unknown => Reflect.apply(real() as Callable, thisArgument, args),
		construct: (_target, args: unknown[], newTarget): object => Reflect.construct(real() as Callable, args, newTarget) as object,
		get: (_target, key) => Reflect.get(real(), key),
		has: (_target, key) => Reflect.has(real(), key),
		getPrototypeOf: () => Reflect.getPrototypeOf(real()),
	});
}

// dist/client-node-extras.cjs sits beside dist/cli.js; the bundle leaves this require as it is (scripts/build.mjs).
const extras = (): typeof Extras => require('./client-node-extras.cjs') as typeof Extras;

// node-fetch: config.js builds Headers for applyToFetchOptions; gen/http/isomorphic-fetch.js fetches.
export const Headers = onDemand(() => extras().Headers);
const fetch = onDemand(() => extras().fetch);
export default fetch;

// socks-proxy-agent and hpagent: the agent for a cluster's proxy-url (config.js createAgent).
export const SocksProxyAgent = onDemand(() => extras().SocksProxyAgent);
export const HttpProxyAgent = onDemand(() => extras().HttpProxyAgent);
export const HttpsProxyAgent = onDemand(() => extras().HttpsProxyAgent);

// jsonpath-plus: the Azure and GCP auth providers read their token out of a command's JSON.
export const JSONPath = onDemand(() => extras().JSONPath);

// openid-client: the OIDC auth provider.
export const discovery = onDemand(() => extras().discovery);
export const refreshTokenGrant = onDemand(() => extras().refreshTokenGrant);
