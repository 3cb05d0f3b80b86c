// A real Prometheus for the --prometheus tests: Debian's `prometheus` package binary, run directly as a child
// process (no systemd) on a free loopback port with a temporary storage directory, scraping the targets the
// test serves. Not found -> null, so the test is skipped and says why.
import {spawn, type ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {until} from './until.js';

/** /usr/bin/prometheus (Debian), else the first `prometheus` on PATH; null when there is none. */
export function findPrometheus(): string | null {
	const candidates = [
		'/usr/bin/prometheus',
		...(process.env['PATH'] ?? '')
			.split(path.delimiter)
			.filter(Boolean)
			.map((dir) => path.join(dir, 'prometheus')),
	];
	return (
		candidates.find((file) => {
			try {
				fs.accessSync(file, fs.constants.X_OK);
				return fs.statSync(file).isFile();
			} catch {
				return false;
			}
		}) ?? null
	);
}

async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

export type ScrapeTarget = {
	/** host:port */
	address: string;
	metricsPath: string;
	labels: Record<string, string>;
	/** The scrape job holding the target. @default 'kubelet' */
	job?: string;
};

export type RunningPrometheus = {
	url: string;
	/** GET /api/v1/query; returns `data` of a success answer, throws on an error answer. */
	query(
		promql: string,
		time?: number,
	): Promise<{
		resultType: string;
		result: Array<{metric: Record<string, string>; value?: [number, string]; values?: Array<[number, string]>}>;
	}>;
	/** Prometheus' own log (stderr), for a failure message. */
	log(): string;
	close(): Promise<void>;
};

function scrapeConfig(targets: ScrapeTarget[], intervalSeconds: number): string {
	// JSON is YAML: no YAML library needed for the config.
	return JSON.stringify({
		global: {scrape_interval: `${intervalSeconds}s`, evaluation_interval: `${intervalSeconds}s`},
		scrape_configs: [...new Set(targets.map((target) => target.job ?? 'kubelet'))].map((job) => ({
			job_name: job,
			scrape_interval: `${intervalSeconds}s`,
			scrape_timeout: `${intervalSeconds}s`,
			// __metrics_path__ per target, so one test server can serve every simulated kubelet.
			static_configs: targets
				.filter((target) => (target.job ?? 'kubelet') === job)
				.map((target) => ({
					targets: [target.address],
					labels: {...target.labels, __metrics_path__: target.metricsPath},
				})),
		})),
	});
}

/**
 * `backfill`: OpenMetrics text (samples with their Unix-second timestamps, ending `# EOF`) written into the storage by
 * `promtool tsdb create-blocks-from openmetrics` before Prometheus starts: a past it never scraped.
 */
export async function startPrometheus(
	binary: string,
	targets: ScrapeTarget[],
	intervalSeconds = 1,
	backfill?: string,
): Promise<RunningPrometheus> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pleg-top-prometheus-'));
	const config = path.join(dir, 'prometheus.yml');
	fs.writeFileSync(config, scrapeConfig(targets, intervalSeconds));
	if (backfill !== undefined) {
		const input = path.join(dir, 'backfill.om');
		fs.writeFileSync(input, backfill);
		const promtool = path.join(path.dirname(binary), 'promtool');
		const created = await new Promise<{code: number | null; output: string}>((resolve) => {
			const tool = spawn(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', input, path.join(dir, 'data')], {
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			let output = '';
			tool.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			tool.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
			tool.on('close', (code) => resolve({code, output}));
		});
		if (created.code !== 0) throw new Error(`promtool could not backfill (exit ${created.code}): ${created.output}`);
	}

	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	let log = '';
	const child: ChildProcess = spawn(
		binary,
		[
			`--config.file=${config}`,
			`--storage.tsdb.path=${path.join(dir, 'data')}`,
			`--web.listen-address=127.0.0.1:${port}`,
			'--log.level=warn',
		],
		{stdio: ['ignore', 'ignore', 'pipe']},
	);
	child.stderr?.on('data', (chunk: Buffer) => {
		log = (log + chunk.toString()).slice(-4000);
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

	const close = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
			await exited;
			clearTimeout(killer);
		}

		fs.rmSync(dir, {recursive: true, force: true});
	};

	try {
		await until(
			async () => {
				// An exit fails at once: no /-/ready would ever answer.
				if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}`);
				return fetch(`${url}/-/ready`).then(
					(answer) => answer.ok,
					() => false,
				);
			},
			'prometheus to be ready',
			20_000,
			100,
		);
	} catch (error) {
		await close();
		throw new Error(`${(error as Error).message}: ${log}`);
	}

	return {
		url,
		async query(promql, time) {
			const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}${time === undefined ? '' : `&time=${time}`}`);
			const body = (await answer.json()) as {status: string; data: never; error?: string};
			if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error}`);
			return body.data;
		},
		log: () => log,
		close,
	};
}
