// The next steps pane's rows for the demo node, unhealthy, no kubeconfig read (plain kubectl), containerd: written
// once for the frame tests and the tmux tests.

/** The heading, the kubectl lines, then under one row saying where, the runtime side. */
export const demoNodeSteps = [
	'next steps · ready to paste',
	'  kubectl describe node demo-node',
	'  kubectl cordon demo-node',
	'on the node (ssh: kubectl debug node/… needs this same runtime to start its pod)',
	'  systemctl status containerd',
	'  journalctl -u containerd --since -15m',
	'  crictl --timeout 5s info',
	'  crictl pods --state notready',
	'  journalctl -u kubelet --since -30m | grep -i pleg',
];
