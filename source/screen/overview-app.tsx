// The overview screen: the node table, arrow keys to select, Enter for the one-node screen (the same Dashboard
// as `--node NAME`, fed by that node's feed), Esc back. The engine owns every timer of the polling; this
// component owns only the display clock and a short render throttle (many nodes answer many times a second).
import {useApp, useInput} from 'ink';
import React, {useEffect, useMemo, useRef, useState} from 'react';
import {Dashboard} from './dashboard.js';
import {OverviewTable} from './panes/overview-table.js';
import {msToNextSecond} from './hooks/use-pleg-feed.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import type {OverviewEngine} from '../engine/overview-engine.js';
import {sortedRows} from './overview-rows.js';
import {nodeView} from '../domain/overview-state.js';

export type OverviewAppProps<F> = {
	engine: OverviewEngine<F>;
	now?: () => number;
	/** Screen refreshes at most this often while answers stream in, ms. @default 250 */
	renderEveryMs?: number;
	/** Fixed size (tests); default the terminal's. */
	size?: {columns: number; rows: number};
	/** Open this node's screen at once (--prometheus --node N). Esc then does nothing. */
	only?: string;
};

/** The engine's state, re-read at most every `everyMs` after a change and on each whole second. */
function useEngineState<F>(engine: OverviewEngine<F>, now: () => number, everyMs: number) {
	const [snapshot, setSnapshot] = useState(() => ({state: engine.state, now: now()}));
	useEffect(() => {
		let pending: NodeJS.Timeout | undefined;
		let tick: NodeJS.Timeout;
		const refresh = () => {
			pending = undefined;
			setSnapshot({state: engine.state, now: now()});
		};

		const unsubscribe = engine.subscribe(() => {
			pending ??= setTimeout(refresh, everyMs);
		});
		const second = () => {
			refresh();
			tick = setTimeout(second, msToNextSecond(now()));
		};

		tick = setTimeout(second, msToNextSecond(now()));
		return () => {
			unsubscribe();
			clearTimeout(pending);
			clearTimeout(tick);
		};
	}, [engine, now, everyMs]);
	return snapshot;
}

export function OverviewApp<F>({engine, now = Date.now, renderEveryMs = 250, size, only}: OverviewAppProps<F>) {
	const {exit} = useApp();
	const terminal = useTerminalSize();
	const {columns, rows: terminalRows} = size ?? terminal;
	const {state, now: at} = useEngineState(engine, now, renderEveryMs);
	const [selected, setSelected] = useState<string | null>(null);
	const [open, setOpen] = useState<string | null>(only ?? null);
	const [showHelp, setShowHelp] = useState(false);
	const views = useMemo(() => [...state.nodes.values()].map(entry => nodeView(engine.kind, entry, at)), [state, at, engine]);
	const rows = useMemo(() => sortedRows(views), [views]);
	const current = selected !== null && rows.some(row => row.name === selected) ? selected : (rows[0]?.name ?? null);

	// The key handler reads the latest render's rows through a ref: an input can arrive before ink has
	// re-registered a handler that closes over newer rows.
	const latest = useRef({rows, current, open});
	latest.current = {rows, current, open};
	useInput((input, key) => {
		const {rows: shown, current: chosen, open: opened} = latest.current;
		if (input === 'q') {
			exit();
		} else if (opened !== null) {
			if (input === '?') setShowHelp(visible => !visible);
			else if (key.escape && showHelp) setShowHelp(false);
			else if (key.escape && only === undefined) setOpen(null);
		} else if (key.upArrow || key.downArrow) {
			const index = Math.max(0, shown.findIndex(row => row.name === chosen));
			const next = Math.min(shown.length - 1, Math.max(0, index + (key.upArrow ? -1 : 1)));
			setSelected(shown[next]?.name ?? null);
		} else if (key.return && chosen !== null) {
			setSelected(chosen);
			setOpen(chosen);
		}
	});

	// One row short of the terminal, as the one-node screen: a full-height frame makes ink redraw everything.
	const height = Math.max(1, terminalRows - 1);
	const entry = open === null ? undefined : state.nodes.get(open);
	if (open !== null) {
		const view = entry ? nodeView(engine.kind, entry, at) : null;
		return (
			<Dashboard
				figures={view?.figures ?? null}
				status={view?.status ?? {failure: null, failingSince: null, lastGoodAt: null, consecutiveFailures: 0, lastLatencyMs: null, paused: false}}
				history={view?.history ?? []}
				node={view?.node ?? null}
				sourceLabel={only === undefined ? `${open} · Esc: all nodes · ${engine.label}` : engine.label}
				intervalSeconds={engine.effectiveIntervalMs() / 1000}
				now={at}
				width={columns}
				height={height}
				showHelp={showHelp}
			/>
		);
	}

	return (
		<OverviewTable
			rows={rows}
			selected={current}
			sourceLabel={engine.label}
			cadence={engine.cadence()}
			listFailure={state.listFailure}
			now={at}
			width={columns}
			height={height}
		/>
	);
}
