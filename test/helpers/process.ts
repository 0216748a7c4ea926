import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TEST_BUILD } from './built.js';

export const ROOT = resolve(import.meta.dirname, '../..');
// The compiled CLI, copied for the suites by the global setup (helpers/built.ts).
const CLI = [resolve(ROOT, TEST_BUILD, 'cli/main.js')];

/** The parent's environment minus what Vitest sets for Vite (BASE_URL=/) and what would leak between tests. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { BASE_URL: _b, DATABASE_URL: _d, DATA_DIR: _dd, ADMIN_TOKEN: _a, TECH_EVENTS_NOW: _n, ...rest } = process.env;
  return { ...rest, ...extra };
}

/**
 * Runs the CLI to completion. Asynchronously: a synchronous spawn would block the test worker's event
 * loop for the whole run, and Vitest's messages between worker and main process time out behind a few such runs.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return runNode([...CLI, ...args], childEnv({ LOG_LEVEL: 'silent', SYNC_INTERVAL_MINUTES: '0', ...env }), 60_000);
}

/** Runs `node <args>` from the repository root to completion, collecting its output (see `runCli`). */
export async function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, timeout: timeoutMs });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const status = await new Promise<number | null>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolveExit(code));
  });
  return { status, stdout, stderr };
}

/**
 * Runs a module's source (TypeScript, importing from the repository root) in a process of its own, expecting it to
 * exit 0 with nothing on stderr; returns its stdout.
 */
export async function runModuleSource(source: string): Promise<string> {
  const { status, stdout, stderr } = await runNode(
    ['--import', 'tsx', '--input-type=module', '-e', source],
    process.env,
    60_000,
  );
  if (status !== 0 || stderr !== '') throw new Error(`the module exited ${status}: ${stderr}`);
  return stdout;
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
}

/** Starts `tech-events serve` as a real process and waits until /healthz answers. */
export async function spawnServer(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...CLI, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: ROOT,
    env: childEnv({
      LOG_LEVEL: 'info',
      SEED: '0',
      // No background sync of the shipped feeds: tests never reach beyond this machine.
      SYNC_INTERVAL_MINUTES: '0',
      // Seeding suites get the confs.tech snapshot alone, as `curated` (see CURATED_FEEDS_FILE in server.ts).
      FEEDS_FILE: resolve(ROOT, 'test/fixtures/feeds-curated.json'),
      RATE_LIMIT_READS_PER_MINUTE: '0',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return { child, base, output: () => out };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy:\n${out}`);
}

export function waitForExit(child: ChildProcess): Promise<void> {
  return new Promise((res) =>
    child.exitCode !== null || child.signalCode !== null ? res() : child.once('exit', () => res()),
  );
}
