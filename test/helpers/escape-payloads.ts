// Terminal escape payloads (the class of CVE-2021-25743) and the check that none of their bytes got out.

/** One payload of each kind a cluster string could carry to the operator's terminal. */
const payloads = {
	/** OSC 0: sets the window/pane title. */
	oscTitle: '\u001B]0;pwn\u0007',
	/** OSC 52: writes the clipboard ("cm0gLXJmIC8=" is "rm -rf /"). */
	oscClipboard: '\u001B]52;c;cm0gLXJmIC8=\u0007',
	/** CSI: clears the screen. */
	csiClear: '\u001B[2J',
	/** C1 CSI: red text on terminals that read 8-bit controls. */
	c1Csi: '\u009B31m',
	carriageReturn: 'hidden\rshown',
	backspace: 'abc\b\b\bxyz',
	bell: 'ding\u0007',
	del: 'del\u007F',
	loneEsc: 'lone\u001B',
	/** Right-to-left override: reverses what follows on terminals that do bidi. */
	bidi: 'abc\u202Etxt.exe',
} as const;

/** All payloads in one string, as one field of the cluster would carry them. */
export const allPayloads = Object.values(payloads).join(' ');

/** The visible form of allPayloads on one line: what every sink must show instead. */
export const allPayloadsVisible = [
	'^[]0;pwn^G',
	'^[]52;c;cm0gLXJmIC8=^G',
	'^[[2J',
	'\\u009b31m',
	'hidden^Mshown',
	'abc^H^H^Hxyz',
	'ding^G',
	'del^?',
	'lone^[',
	'abc\\u202etxt.exe',
].join(' ');

/** ESC, the other C0 controls but \n and \t, DEL, C1, bidi overrides. */
const forbidden = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** The first forbidden character of `text` with what surrounds it, or null when there is none. */
export function firstControl(text: string): string | null {
	const match = forbidden.exec(text);
	if (!match) return null;
	const at = match.index;
	return `U+${match[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}
