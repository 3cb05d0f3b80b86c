// The demo's switches as the screen drives them: the contract between the simulated kubelet (demo/) and the keys
// that steer it (screen/app.tsx), so the screen needs nothing from demo/ itself.

/** The one scenario that shows most, for the stats and the tests. */
export type DemoScenario = 'idle' | 'churn' | 'slow-runtime' | 'stalled';

/** The scenario switches the demo UI and the test fake API server drive. */
export type DemoControls = {
	/** Pods churn (a deployment of 12 pods scales to 0 and back): relists take 10-50x longer. */
	churn(on: boolean): void;
	/** The container runtime answers slowly: the two list calls take most of each relist. */
	slowRuntime(on: boolean): void;
	/** The relist in progress (or the next one) hangs in ListPodSandbox: no completions, last_seen stops. */
	stall(): void;
	/** The hung relist returns: its long duration is observed and the loop resumes 1 s later. */
	recover(): void;
	/** Kubelet restart: every counter back to 0, last_seen 0 until the first relist succeeds. */
	restart(): void;
	/** `pleg-top lab --demo`: the lab's pods Running on the node now (absent where no lab can run). */
	labPods?(count: number): void;
	/** The one scenario that shows most (stalled, then churn, then slow-runtime): for the stats and the tests. */
	readonly scenario: DemoScenario;
	/** Each switch on its own: the keys toggle these, the header names every one that is on. */
	readonly churning: boolean;
	readonly runtimeSlow: boolean;
	readonly stalled: boolean;
};

/** What the demo does now, every switch that is on: "stalled + churn + slow runtime", or "idle". */
export function demoLabel(controls: Pick<DemoControls, 'churning' | 'runtimeSlow' | 'stalled'>): string {
	const on = [controls.stalled && 'stalled', controls.churning && 'churn', controls.runtimeSlow && 'slow runtime'].filter(Boolean);
	return on.length > 0 ? on.join(' + ') : 'idle';
}
