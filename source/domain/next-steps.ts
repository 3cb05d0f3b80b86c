// What to run next when PLEG is in trouble, with the node's name filled in, ready to paste: the screen shows it
// from the critical band on, the --once text report when unhealthy, `?` always (with NODE when no node is named).
import {bandOf} from './health.js';
import type {Figures} from './types.js';

export type NextStep = {
	command: string;
	/** Where it runs: the kubectl lines anywhere the kubeconfig works, the others in a shell on the node. */
	where: 'kubectl' | 'on the node';
	/** What it shows, a few words. */
	why: string;
};

/**
 * The four commands: the node's conditions and Events, the containers as the runtime sees them (through a debug
 * pod, no ssh needed), the kubelet's own PLEG lines, and the pod sandboxes that are not ready.
 */
export function nextSteps(node: string): NextStep[] {
	return [
		{command: `kubectl describe node ${node}`, where: 'kubectl', why: 'conditions, Events'},
		{
			command: `kubectl debug node/${node} -it --image=busybox -- chroot /host crictl ps -a`,
			where: 'kubectl',
			why: 'containers as the runtime lists them',
		},
		{command: 'journalctl -u kubelet | grep -i pleg', where: 'on the node', why: "the kubelet's PLEG lines"},
		{command: 'crictl pods --state NotReady', where: 'on the node', why: 'sandboxes not ready'},
	];
}

/** The screen shows the next steps in these bands: the age has passed half the threshold, or cannot be judged. */
export function showsNextSteps(figures: Figures): boolean {
	const band = bandOf(figures);
	return band === 'critical' || band === 'unhealthy' || band === 'unknown';
}
