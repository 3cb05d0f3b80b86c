// The two names client-node's config.js takes from its generated API (gen/index.js), without the 2,500 generated
// model and API modules that index.js loads with them. scripts/build.mjs swaps config.js's import of gen/index.js for this file.
export {createConfiguration} from '@kubernetes/client-node/dist/gen/configuration.js';
export {ServerConfiguration} from '@kubernetes/client-node/dist/gen/servers.js';
