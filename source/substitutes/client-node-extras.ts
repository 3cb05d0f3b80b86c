// The entry of dist/client-node-extras.cjs: the names client-node-on-demand.ts stands in for, from packages pleg-top
// loads only for a proxy-url or an OIDC, Azure or GCP auth provider. A file of its own, so their ~0.7 MB of source
// is read only by the process that needs them (in the main bundle, V8 holds all of its source for good).
export {Headers, default as fetch} from 'node-fetch';
export {SocksProxyAgent} from 'socks-proxy-agent';
export {HttpProxyAgent, HttpsProxyAgent} from 'hpagent';
export {JSONPath} from 'jsonpath-plus';
export {discovery, refreshTokenGrant} from 'openid-client';
