// Shell completion, pure: what to offer for the word being typed (flags, a flag's values, files or node names),
// and the scripts for bash, zsh and fish. The scripts ask `pleg-top __complete WORD…` (kubectl asks its plugin's
// `kubectl_complete-pleg_top WORD…`), which answers as cobra programs do: one candidate a line, then
// `:DIRECTIVE` (4: no file names; 0: the shell may offer file names), so kubectl's own completion reads it.
import type {CompletionNeed} from '../run/complete-need.js';
import {switchFlags as labSwitches, valueFlags as labValues} from './lab-options.js';
import {failOnBands, flagSpec, formats, parseDuration} from './options.js';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];

const fileFlags = new Set(['kubeconfig', 'record', 'replay', 'summary', 'plot', 'token-file', 'kubelet-ca']);
const valueWords: Partial<Record<keyof typeof flagSpec, readonly string[]>> = {output: formats, 'fail-on': failOnBands};

/** The flag a word names (`--context`, `-o`), or undefined. */
function flagNamed(word: string): keyof typeof flagSpec | undefined {
	const long = /^--([\w-]+)$/.exec(word)?.[1];
	if (long !== undefined) return long in flagSpec ? (long as keyof typeof flagSpec) : undefined; // checked by `in`
	const short = /^-(\w)$/.exec(word)?.[1];
	// Below: keys of the literal.
	return (Object.keys(flagSpec) as Array<keyof typeof flagSpec>).find((name) => {
		const spec = flagSpec[name];
		return 'short' in spec && spec.short === short;
	});
}

/** The value of `--name VALUE` or `--name=VALUE` among the finished words, the last one given. */
function typedValue(words: readonly string[], name: string): string | undefined {
	let value: string | undefined;
	words.forEach((word, index) => {
		if (word === `--${name}`) value = words[index + 1];
		else if (word.startsWith(`--${name}=`)) value = word.slice(name.length + 3);
	});
	return value;
}

/** A typed --timeout in ms; one that does not read as a duration is left out (the default bound applies). */
function typedTimeoutMs(text: string | undefined): number | undefined {
	if (text === undefined) return undefined;
	try {
		return parseDuration(text);
	} catch {
		return undefined;
	}
}

/** What to offer for the last of `words` (the word being typed, '' for a new one); the words before it are finished. */
export function completionNeed(words: readonly string[]): CompletionNeed {
	const current = words.at(-1) ?? '';
	const finished = words.slice(0, -1);
	const lab = finished[0] === 'lab';
	// A lab flag's value (a number of pods, a namespace, a duration) is the user's to type.
	if (lab && labValues.some((flag) => finished.at(-1) === `--${flag}`)) return {kind: 'words', candidates: []};
	const previous = flagNamed(finished.at(-1) ?? '');
	if (previous !== undefined && flagSpec[previous].type === 'string') {
		if (fileFlags.has(previous)) return {kind: 'files'};
		const values = valueWords[previous];
		return {kind: 'words', candidates: (values ?? []).filter((value) => value.startsWith(current))};
	}

	if (current.startsWith('-')) {
		const names = [...(lab ? [...labValues, ...labSwitches] : []), ...Object.keys(flagSpec)];
		return {kind: 'words', candidates: names.map((name) => `--${name}`).filter((flag) => flag.startsWith(current))};
	}

	const subcommands = ['completion', 'lab'].filter((word) => word.startsWith(current));
	if (finished.length === 0 && current !== '' && subcommands.length > 0) return {kind: 'words', candidates: subcommands};
	if (finished[0] === 'completion') return {kind: 'words', candidates: shells.filter((shell) => shell.startsWith(current))};
	return {
		kind: 'nodes',
		prefix: current,
		kubeconfig: typedValue(finished, 'kubeconfig'),
		context: typedValue(finished, 'context'),
		timeoutMs: typedTimeoutMs(typedValue(finished, 'timeout')),
	};
}

/** The completion script for `shell`; `program` is the command it completes (pleg-top). */
export function completionScript(shell: Shell, program = 'pleg-top'): string {
	switch (shell) {
		case 'bash':
			return `# bash completion for ${program}: source <(${program} completion bash)
_pleg_top_complete() {
	local answer directive
	answer=$("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
	directive=\${answer##*:}
	answer=\${answer%:*}
	local IFS=$'\\n'
	COMPREPLY=($(compgen -W "$answer" -- "\${COMP_WORDS[COMP_CWORD]}"))
	if (( (directive & 4) == 0 )) && [[ \${#COMPREPLY[@]} -eq 0 ]]; then
		COMPREPLY=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}"))
	fi
}
complete -o filenames -F _pleg_top_complete ${program}
`;
		case 'zsh':
			return `#compdef ${program}
# zsh completion for ${program}: source <(${program} completion zsh)
_pleg_top() {
	local -a answer
	answer=("\${(@f)$(\${words[1]} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
	local directive=\${answer[-1]#:}
	answer=("\${(@)answer[1,-2]}")
	if (( \${#answer} > 0 )); then
		compadd -- "\${(@)answer}"
	elif (( (directive & 4) == 0 )); then
		_files
	fi
}
compdef _pleg_top ${program}
`;
		case 'fish':
			return `# fish completion for ${program}: ${program} completion fish | source
function __pleg_top_complete
	set -l words (commandline -opc) (commandline -ct)
	set -l answer ($words[1] __complete $words[2..-1] 2>/dev/null)
	set -l directive (string replace ':' '' -- $answer[-1])
	set -e answer[-1]
	if test (count $answer) -gt 0
		printf '%s\\n' $answer
	else if test (math "bitand($directive, 4)") -eq 0
		__fish_complete_path (commandline -ct)
	end
end
complete -c ${program} -f -a '(__pleg_top_complete)'
`;
	}
}
