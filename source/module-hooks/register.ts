// Installs hooks.ts before client-node is first imported (the caller imports it dynamically afterwards).
import {register} from 'node:module';

export function registerModuleHooks(): void {
	register('./hooks.js', import.meta.url);
}
