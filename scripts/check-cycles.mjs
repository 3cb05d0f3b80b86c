// Fails when modules under source/ import each other in a cycle, type-only imports included: a cycle means two
// modules that are one, or a layer that reaches back up. Part of `npm run lint`. `node scripts/check-cycles.mjs [DIR]`.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const importPattern = /^(?:import|export)\s[^;]*?from\s+'(\.[^']*)'|\bimport\('(\.[^']*)'\)/gm;

/** Every .ts/.tsx module below `dir` and the modules it imports by relative path. */
export function importGraph(dir) {
	const files = readdirSync(dir, {recursive: true, withFileTypes: true})
		.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
		.map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
	const graph = new Map();
	for (const file of files) {
		const targets = [];
		for (const [, fromClause, dynamic] of readFileSync(file, 'utf8').matchAll(importPattern)) {
			const stem = path.resolve(path.dirname(file), fromClause ?? dynamic).replace(/\.js$/, '');
			const target = [`${stem}.ts`, `${stem}.tsx`].find((candidate) => existsSync(candidate));
			if (target) targets.push(target);
		}
		graph.set(file, targets);
	}
	return graph;
}

/** The strongly connected groups of more than one module (Tarjan), each a cycle or several tied together. */
export function cycles(graph) {
	let next = 0;
	const index = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const found = [];
	const visit = (node) => {
		index.set(node, next);
		low.set(node, next++);
		stack.push(node);
		onStack.add(node);
		for (const target of graph.get(node) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(node, Math.min(low.get(node), low.get(target)));
			} else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
		}
		if (low.get(node) !== index.get(node)) return;
		const group = [];
		let member;
		do {
			member = stack.pop();
			onStack.delete(member);
			group.push(member);
		} while (member !== node);
		if (group.length > 1) found.push(group.sort());
	};
	for (const node of graph.keys()) if (!index.has(node)) visit(node);
	return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const dir = path.resolve(process.argv[2] ?? 'source');
	const found = cycles(importGraph(dir));
	for (const group of found) console.error(`import cycle: ${group.map((file) => path.relative(dir, file)).join(' <-> ')}`);
	process.exit(found.length === 0 ? 0 : 1);
}
