import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/process.js';
import { freePort } from './helpers/server.js';

/**
 * The README is executable: its shell blocks run as written, in order, the way a newcomer pastes them into two
 * terminals of the clone — `npm install && npm start` in the first, every other command in a second while the
 * service runs. `npm test` is left out (it is the command running this). The test changes only what a shared
 * machine and a closed network need, never the commands: the port (`localhost:3000` → a free port), the data
 * directory (a temporary one), no background sync of the shipped feeds, and npm offline (everything is installed).
 * curl is wrapped to fail on an HTTP error and report the status; a `# → <status> <json>` line after a command is
 * what it must answer.
 */

interface Command {
  text: string;
  /** The `# → 201 {...}` line that follows it, if any. */
  expect?: { status: number; body: unknown };
}

/** The shell blocks of the README, each split into its commands (a command goes on while a quote is open or a line ends in `\`). */
function readmeBlocks(readme: string): Command[][] {
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.map((block) => {
    const commands: Command[] = [];
    let current: string[] = [];
    for (const line of block.split('\n')) {
      if (current.length === 0) {
        const expectation = /^# → (\d{3}) (.*)$/.exec(line);
        if (expectation) {
          commands.at(-1)!.expect = { status: Number(expectation[1]), body: JSON.parse(expectation[2]!) };
          continue;
        }
        if (line.trim() === '' || line.startsWith('#')) continue;
      }
      current.push(line);
      const text = current.join('\n');
      const openQuote = (text.replace(/"[^"]*"/g, '').match(/'/g) ?? []).length % 2 === 1;
      if (!openQuote && !line.endsWith('\\')) {
        commands.push({ text });
        current = [];
      }
    }
    return commands;
  });
}

const START = 'npm install && npm start';

/** Runs a script in bash from the repository root to completion (asynchronously: the worker's loop stays free). */
function runBash(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env, timeout: 240_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the README, run as written', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tev-readme-'));
  let service: ChildProcess | undefined;
  let serviceOutput = '';
  afterAll(async () => {
    if (service?.pid && service.exitCode === null) {
      // npm start's whole process group: npm and the node it started.
      process.kill(-service.pid, 'SIGTERM');
      await new Promise((resolve) => service!.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('installs, starts, and answers every command of the README', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const [first, ...others] = readmeBlocks(readme);
    expect(first!.map((c) => c.text.split('#')[0]!.trim())).toEqual([START, 'npm test']);
    const port = await freePort();
    const local = (text: string) => text.replaceAll('localhost:3000', `localhost:${port}`);
    const { BASE_URL: _b, DATABASE_URL: _d, ADMIN_TOKEN: _a, TECH_EVENTS_NOW: _n, ...inherited } = process.env;
    const env = {
      ...inherited,
      PORT: String(port),
      DATA_DIR: dataDir,
      SYNC_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'warn',
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const status = () => execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' });
    const before = status();

    // The first terminal.
    service = spawn('bash', ['-c', first![0]!.text], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (d) => (serviceOutput += d));
    service.stderr!.on('data', (d) => (serviceOutput += d));
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (service.exitCode !== null) throw new Error(`${START} exited (${service.exitCode}):\n${serviceOutput}`);
      if (Date.now() > deadline) throw new Error(`${START} was not ready in time:\n${serviceOutput}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // npm install left the clone as it was.
    expect(status()).toBe(before);

    // The second terminal: one shell, so that a variable set by one command serves the next.
    const commands = others.flat();
    expect(commands.length).toBeGreaterThanOrEqual(6);
    const script = [
      `curl() { command curl --fail-with-body -sS -w '\\n@@status %{http_code}\\n' "$@"; }`,
      ...commands.map((c, i) => `echo "@@begin ${i}"\n${local(c.text)}\necho "@@exit $?"`),
    ].join('\n');
    const run = await runBash(script, env);
    const parts = run.stdout.split(/^@@begin \d+\n/m).slice(1);
    expect(parts, run.stderr).toHaveLength(commands.length);
    for (const [i, command] of commands.entries()) {
      const output = parts[i]!;
      const exit = /^@@exit (\d+)$/m.exec(output)?.[1];
      expect(exit, `${command.text}\n${output}\n${run.stderr}`).toBe('0');
      if (!command.expect) continue;
      const answer = /([\s\S]*)\n@@status (\d{3})/.exec(output);
      expect(Number(answer?.[2]), command.text).toBe(command.expect.status);
      expect(JSON.parse(answer![1]!)).toEqual(JSON.parse(local(JSON.stringify(command.expect.body))));
    }
    // The key the README made works at once: its event is listed.
    const listed = (await fetch(`http://127.0.0.1:${port}/api/events?q=KI-Meetup`).then((res) => res.json())) as {
      events: { id: string }[];
    };
    expect(listed.events.map((e) => e.id)).toContain('ki-meetup-zurich');
  }, 420_000);
});
