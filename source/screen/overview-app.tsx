// The overview screen: the node table, arrow keys to select, Enter for the one-node screen (the same Dashboard
// as `pleg-top NODE`, fed by that node's feed), Esc back. The engine owns every timer and the clock (its frames
// come at most every `renderEveryMs`: many nodes answer many times a second); this component owns the selection,
// the sort order and the name filter (overview-keys.ts).
import {useApp, useInput} from 'ink';
import {useEffect, useMemo, useRef, useState} from 'react';
import {Dashboard, dashboardHelpRows, dashboardHelpScroll, pasteContext, type HeaderContext} from './dashboard.js';
import {OverviewTable} from './panes/overview-table.js';
import {useEngineFrames} from './hooks/use-engine-frames.js';
import {useLatestCallback} from './hooks/use-latest-callback.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import type {Engine} from '../engine/engine.js';
import {filterRows, lastRowsMemo, sortRows} from './overview-rows.js';
import {applyPresses, initialOverviewUi, pressesOf, type OverviewUi, type ScrollMove} from './overview-keys.js';
import {helpBodyLines, helpScreenLines, helpScroll, scrollHelp} from './panes/help-screen.js';
import {rowsText} from './panes/help-search.js';
import type {PasteContext} from '../domain/incident/next-steps.js';
import {nodeScreenView} from './node-screen-view.js';
import {Lines} from './layout/line-view.js';

export type OverviewAppProps<F> = {
	engine: Engine<F>;
	/** Screen refreshes at most this often while answers stream in, ms. @default 250 */
	renderEveryMs?: number;
	/** Fixed size (tests); default the terminal's. */
	size?: {columns: number; rows: number};
	/** Open this node's screen at once. Esc then does nothing. */
	only?: string;
	/** The kubeconfig context read: the node screens it opens show it, and their pasted commands carry it. */
	header?: HeaderContext;
	/** Told of each node opened from the table, null when back at it (the runner's terminal title and bell). */
	onOpen?: (node: string | null) => void;
};

/** The opened node's Node object and Events are read while it shows, as `pleg-top NODE` reads them. */
function useOpened<F>(engine: Engine<F>, open: string | null, onOpen: ((node: string | null) => void) | undefined): void {
	useEffect(() => {
		engine.open?.(open);
		onOpen?.(open);
	}, [engine, open, onOpen]);
	useEffect(
		() => () => {
			engine.open?.(null);
		},
		[engine],
	);
}

/** The help the screen shows: the table's fills the screen; an opened node's sits below the dashboard's header row. */
function shownHelp(open: string | null, columns: number, height: number, paste: () => PasteContext) {
	return open === null
		? {scroll: () => helpScroll({width: columns, height}), rows: () => rowsText(helpBodyLines(columns))}
		: {
				scroll: () => dashboardHelpScroll(columns, height, open, paste()),
				rows: () => dashboardHelpRows(columns, open, paste()),
			};
}

export function OverviewApp<F>({engine, renderEveryMs = 250, size, only, header, onOpen}: OverviewAppProps<F>) {
	const {exit} = useApp();
	const terminal = useTerminalSize();
	const {columns, rows: terminalRows} = size ?? terminal;
	const {state, now: at} = useEngineFrames(engine, renderEveryMs);
	const [ui, setUi] = useState(() => initialOverviewUi(only));
	// Remembered outside React's hooks, which keep a value in two fibers: one frame's rows are held, not two.
	const rowsOf = useMemo(() => lastRowsMemo(engine.kind), [engine]);
	const rows = rowsOf(state, {now: at, cycleMs: engine.effectiveIntervalMs()}, ui.sort);
	const {open} = ui;
	useOpened(engine, open, onOpen);

	// The key handler reads the latest render's rows through a ref and leaves its result there: the keys of one
	// chunk ("ss", "jjj") are applied in turn, each to the state the one before left, before the next render.
	const latest = useRef({rows, ui});
	latest.current = {rows, ui};
	useInput(
		useLatestCallback((input, key) => {
			const {rows: known, ui: before} = latest.current;
			const shownFor = (next: OverviewUi) => filterRows(sortRows(known, next.sort), next.filter).map((row) => row.name);
			const help = shownHelp(before.open, columns, height, () =>
				pasteContext({context: header, node: before.open === null ? null : (engine.state.nodes.get(before.open)?.info ?? null)}),
			);
			const scroll = (offset: number, move: ScrollMove) => scrollHelp(offset, move, help.scroll());
			const after = applyPresses(before, pressesOf(input, key), shownFor, {only, scrollHelp: scroll, helpRows: help.rows});
			if (after === 'quit') {
				exit();
				return;
			}

			latest.current = {rows: known, ui: after};
			setUi(after);
		}),
	);

	// One row short of the terminal, as the one-node screen: a full-height frame makes ink redraw everything.
	const height = Math.max(1, terminalRows - 1);
	if (open !== null) {
		return (
			<Dashboard
				{...nodeScreenView(engine, state, open, at)}
				sourceLabel={only === undefined ? `${open} · q/Esc: all nodes${header?.kube ? '' : ` · ${engine.label}`}` : engine.label}
				intervalSeconds={(engine.openedIntervalMs?.() ?? engine.effectiveIntervalMs()) / 1000}
				now={at}
				width={columns}
				height={height}
				showHelp={ui.help}
				helpOffset={ui.helpOffset}
				helpSearch={ui.helpSearch}
				toggleConstants={ui.constantsToggled}
				context={header}
				quitHint={only === undefined ? 'back' : 'quit'}
			/>
		);
	}

	if (ui.help)
		return <Lines lines={helpScreenLines({width: columns, height, offset: ui.helpOffset, search: ui.helpSearch})} width={columns} />;
	return (
		<OverviewTable
			rows={rows}
			selected={ui.selected}
			sort={ui.sort}
			filter={ui.filter}
			typing={ui.typing}
			sourceLabel={engine.label}
			cadence={engine.cadence()}
			notes={engine.notes?.()}
			listFailure={state.listFailure}
			now={at}
			width={columns}
			height={height}
		/>
	);
}
