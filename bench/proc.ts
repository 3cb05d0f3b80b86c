// Readings of another process from /proc (Linux): CPU time and resident memory.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ, 100 on Linux). */
export const clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;

/** utime + stime of `pid`, ms (resolution 1000 / USER_HZ, 10 ms). */
export function processCpuMs(pid: number): number {
	const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Fields after the command name, which is in parentheses and may contain spaces.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// utime and stime are fields 14 and 15 of the whole line: 12 and 13 after "(comm) ".
	const ticks = Number(fields[11]) + Number(fields[12]);
	return (ticks * 1000) / clockTicksPerSecond;
}

/** VmRSS of `pid`, bytes. */
export function residentBytes(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
	if (kib === undefined) {
		throw new Error(`no VmRSS for process ${pid}`);
	}

	return Number(kib) * 1024;
}

/**
 * utime + stime of `pid`'s main thread (the event loop: JavaScript, rendering, syscalls) and of all its other
 * threads together (V8's compiler and GC helpers, libuv's pool), ms.
 */
export function threadSplitCpuMs(pid: number): {main: number; others: number} {
	let main = 0;
	let others = 0;
	for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
		const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
		if (Number(task) === pid) main += ms;
		else others += ms;
	}

	return {main, others};
}
