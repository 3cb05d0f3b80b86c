// The kubeconfig as every plan through it reads it, and what the header and pasted kubectl lines take from it.
import {homedir} from 'node:os';
import {loadKubeconfig, type LoadedKubeconfig} from '../../sources/kube/kubeconfig.js';
import type {KubeAccess} from '../mode.js';
import type {PlanHeader} from './types.js';

export function kubeconfig(access: KubeAccess, env: NodeJS.ProcessEnv): LoadedKubeconfig {
	return loadKubeconfig({kubeconfig: access.kubeconfig, context: access.context, env, homeDir: env['HOME'] ?? homedir()});
}

/** The context and cluster read, and --kubeconfig when given: the header names them, pasted kubectl lines carry them. */
export function kubeHeader(loaded: LoadedKubeconfig): PlanHeader['kube'] {
	return {
		context: loaded.contextName,
		cluster: loaded.clusterName,
		...(loaded.kubeconfigFlag ? {kubeconfig: loaded.kubeconfigFlag} : {}),
		...(loaded.inCluster ? {inCluster: true} : {}),
		...(loaded.proxy ? {proxy: loaded.proxy.said} : {}),
	};
}
