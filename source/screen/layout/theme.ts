// Colours per meaning, in one place. Every meaning is ALSO carried by a symbol or a word
// (✓ ok, ! warn, !! critical, ✗ unhealthy, ? unknown, "STALE", "PAUSED"), so NO_COLOR or a monochrome
// terminal loses nothing: colour only repeats what the text already says. On a locale that is not UTF-8 each
// glyph reaches the terminal as its ASCII stand-in in the glyph table (glyphs.ts): a new glyph goes there too.
import type {Band} from '../../domain/health/health.js';

export type Tone =
	| 'ok'
	| 'warn'
	| 'critical'
	| 'unhealthy'
	| 'unknown'
	| 'stale'
	| 'error'
	| 'paused'
	| 'title'
	| 'label'
	| 'value'
	| 'dim'
	| 'empty'
	/** What a search of the help found. */
	| 'match';

export type ToneStyle = {color?: string; bold?: boolean; dimColor?: boolean; inverse?: boolean};

/** The palettes: `dark` for light text on a dark background (the default), `light` for dark text on a light one. */
export type ThemeName = 'dark' | 'light';

const palettes: Record<ThemeName, Record<Tone, ToneStyle>> = {
	dark: {
		ok: {color: 'green'},
		warn: {color: 'yellow'},
		critical: {color: 'red'},
		unhealthy: {color: 'red', bold: true},
		unknown: {color: 'gray'},
		stale: {color: 'yellow', bold: true},
		error: {color: 'red'},
		paused: {color: 'cyan', bold: true},
		title: {bold: true},
		label: {dimColor: true},
		value: {bold: true},
		dim: {dimColor: true},
		empty: {dimColor: true},
		match: {inverse: true},
	},
	// Yellow, cyan and grey wash out on white: darker shades of the same hues, readable at 256 colours and above.
	light: {
		ok: {color: '#116329'},
		warn: {color: '#7d4e00'},
		critical: {color: '#cf222e'},
		unhealthy: {color: '#a40e26', bold: true},
		unknown: {color: '#57606a'},
		stale: {color: '#7d4e00', bold: true},
		error: {color: '#cf222e'},
		paused: {color: '#0550ae', bold: true},
		title: {bold: true},
		label: {dimColor: true},
		value: {bold: true},
		dim: {dimColor: true},
		empty: {dimColor: true},
		match: {inverse: true},
	},
};

export function toneStyle(tone: Tone | undefined, theme: ThemeName = 'dark'): ToneStyle {
	return tone ? palettes[theme][tone] : {};
}

export type Health = Band;

export const healthSymbol: Record<Health, string> = {
	ok: '✓',
	warn: '!',
	critical: '!!',
	unhealthy: '✗',
	unknown: '?',
};

/** The kubelet verdict as a health: true → ok, false → unhealthy, null → unknown. */
export function verdictHealth(healthy: boolean | null): Health {
	if (healthy === null) {
		return 'unknown';
	}

	return healthy ? 'ok' : 'unhealthy';
}

/** Bar cells: filled and empty differ in shape, not only in colour. */
export const barFilled = '█';
export const barEmpty = '░';
export const tickMark = '╵';
export const sparkBlocks = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
