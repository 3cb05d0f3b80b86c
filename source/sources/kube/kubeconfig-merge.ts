// Reads kubeconfig files and merges them the way kubectl (client-go clientcmd) does:
// first file to define a named cluster/user/context wins and later duplicates are dropped whole;
// current-context comes from the first file that sets it. Relative paths are resolved against the
// directory of the file that defined them (clientcmd ResolveLocalPaths).
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import {sourceFailure} from '../failure.js';
import {messageOf} from '../../domain/text/thrown.js';

type RawMap = Record<string, unknown>;

/** One named entry and the file that defined it. */
export type Entry = {name: string; body: RawMap; file: string};

export type MergedKubeconfig = {
	clusters: Map<string, Entry>;
	users: Map<string, Entry>;
	contexts: Map<string, Entry>;
	/** The first non-empty current-context and the file it came from. */
	currentContext: {name: string; file: string} | null;
	/** Files that existed and were read, in order. */
	filesLoaded: string[];
};

/** One parsed file; null when the file does not exist and `required` was false. */
export type ParsedFile = {
	file: string;
	clusters: Entry[];
	users: Entry[];
	contexts: Entry[];
	currentContext: string | null;
};

function isMap(value: unknown): value is RawMap {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorCode(error: unknown): string | undefined {
	return isMap(error) && typeof error['code'] === 'string' ? error['code'] : undefined;
}

function readText(file: string, required: boolean): string | null {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch (error) {
		const code = errorCode(error);
		if (code === 'ENOENT' && !required) {
			return null;
		}

		const why =
			code === 'ENOENT'
				? 'the file does not exist'
				: code === 'EACCES'
					? 'permission denied'
					: code === 'EISDIR'
						? 'it is a directory'
						: messageOf(error);
		throw sourceFailure('config', `cannot read kubeconfig ${file}: ${why}`, [`kubeconfig file: ${file}`]);
	}
}

// The fields that name a file, per section (clientcmd GetClusterFileReferences / GetAuthInfoFileReferences).
const clusterPathFields = ['certificate-authority'];
const userPathFields = ['client-certificate', 'client-key', 'tokenFile'];

function resolvePaths(body: RawMap, fields: string[], dir: string): RawMap {
	const out: RawMap = {...body};
	for (const field of fields) {
		const value = out[field];
		if (typeof value === 'string' && value !== '' && !path.isAbsolute(value)) {
			out[field] = path.join(dir, value);
		}
	}

	// An exec command is resolved only when it names a path; a bare name is looked up on PATH.
	const exec = out['exec'];
	if (isMap(exec) && typeof exec['command'] === 'string' && exec['command'].includes(path.sep) && !path.isAbsolute(exec['command'])) {
		out['exec'] = {...exec, command: path.join(dir, exec['command'])};
	}

	return out;
}

function entries(list: unknown, section: 'cluster' | 'user' | 'context', file: string, fields: string[]): Entry[] {
	if (list === undefined || list === null) {
		return [];
	}

	if (!Array.isArray(list)) {
		throw sourceFailure('config', `kubeconfig ${file} is not valid: ${section}s must be a list`, [`kubeconfig file: ${file}`]);
	}

	const dir = path.dirname(file);
	const out: Entry[] = [];
	for (const item of list) {
		// Entries without a name cannot be referred to by a context; client-go drops them too.
		if (isMap(item) && typeof item['name'] === 'string' && item['name'] !== '') {
			const body = isMap(item[section]) ? item[section] : {};
			out.push({name: item['name'], body: resolvePaths(body, fields, dir), file});
		}
	}

	return out;
}

function firstLine(text: string): string {
	return text.split('\n')[0] ?? text;
}

/** Parses one kubeconfig file. Missing + not required -> null; unreadable or invalid YAML -> config failure naming the file. */
export function parseKubeconfigFile(file: string, required: boolean): ParsedFile | null {
	const absolute = path.resolve(file);
	const text = readText(absolute, required);
	if (text === null) {
		return null;
	}

	let document: unknown;
	try {
		document = yaml.load(text);
	} catch (error) {
		throw sourceFailure('config', `kubeconfig ${absolute} is not valid YAML`, [
			`kubeconfig file: ${absolute}`,
			firstLine(messageOf(error)),
		]);
	}

	// An empty file is an empty config for kubectl, not an error.
	if (document === undefined || document === null) {
		return {file: absolute, clusters: [], users: [], contexts: [], currentContext: null};
	}

	if (!isMap(document)) {
		throw sourceFailure('config', `kubeconfig ${absolute} is not a kubeconfig (expected a mapping with clusters, users and contexts)`, [
			`kubeconfig file: ${absolute}`,
		]);
	}

	const current = document['current-context'];
	return {
		file: absolute,
		clusters: entries(document['clusters'], 'cluster', absolute, clusterPathFields),
		users: entries(document['users'], 'user', absolute, userPathFields),
		contexts: entries(document['contexts'], 'context', absolute, []),
		currentContext: typeof current === 'string' && current !== '' ? current : null,
	};
}

function addFirstWins(target: Map<string, Entry>, list: Entry[]): void {
	for (const entry of list) {
		if (!target.has(entry.name)) {
			target.set(entry.name, entry);
		}
	}
}

/** Merges parsed files in order, first definition wins. */
export function mergeKubeconfigs(files: ParsedFile[]): MergedKubeconfig {
	const merged: MergedKubeconfig = {
		clusters: new Map(),
		users: new Map(),
		contexts: new Map(),
		currentContext: null,
		filesLoaded: [],
	};
	for (const parsed of files) {
		merged.filesLoaded.push(parsed.file);
		addFirstWins(merged.clusters, parsed.clusters);
		addFirstWins(merged.users, parsed.users);
		addFirstWins(merged.contexts, parsed.contexts);
		if (merged.currentContext === null && parsed.currentContext !== null) {
			merged.currentContext = {name: parsed.currentContext, file: parsed.file};
		}
	}

	return merged;
}
