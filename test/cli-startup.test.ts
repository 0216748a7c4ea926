import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runNode } from './helpers/process.js';

// Every module of ours the CLI resolves, written to stderr by an in-thread resolve hook.
const HOOK = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    if (result.url.includes('/src/')) process.stderr.write('LOADED ' + result.url + '\\n');
    return result;
  },
});
`;

/** The layers a command's work needs (storage, the engine, the use cases, HTTP): never loaded for a usage error. */
const WORK = /^src\/(storage\/database|context|http|query|use-cases|importers\/registry|service|render)\b/;

// Vitest sets BASE_URL=/ for Vite; the database is the test's own.
const { BASE_URL: _b, DATABASE_URL: _d, DATA_DIR: _dd, ...inherited } = process.env;

describe('the CLI loads a command’s modules only when it runs', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-cli-startup-'));
  const hook = join(dir, 'hook.mjs');
  writeFileSync(hook, HOOK);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const loaded = async (args: string[], dataDir = join(dir, 'data')) => {
    const res = await runNode(
      ['--import', hook, '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args],
      { ...inherited, LOG_LEVEL: 'silent', DATA_DIR: dataDir, SYNC_INTERVAL_MINUTES: '0' },
      60_000,
    );
    const modules = [...res.stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => relative(ROOT, fileURLToPath(m[1]!)));
    return { ...res, modules: [...new Set(modules)] };
  };

  it.each([
    [['nope']],
    [['keys', 'create']],
    [['keys', 'rotate', 'k', '--grace', '99d']],
    [['import', 'x.json', '--format', 'nope', '--source', 'a']],
    [['calendars', 'link']],
    [['proposals', 'reject', 'prp_x']],
    [['rsvps', 'capacity', 'some-event', '0']],
    [['sync', '--nope']],
    [['serve', '--nope']],
  ])('a usage error (%j) answers with the usage, loading none of the work', async (args) => {
    const res = await loaded(args);
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toContain('Usage: tech-events');
    expect(res.modules).toContain('src/cli/main.ts');
    expect(res.modules.filter((m) => WORK.test(m))).toEqual([]);
  });

  it('a command that runs loads what it needs: `keys list` opens the database', async () => {
    const res = await loaded(['keys', 'list']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('No keys.');
    expect(res.modules).toContain('src/storage/database.ts');
    expect(res.modules).toContain('src/use-cases/keys.ts');
    // Not the HTTP stack: only `serve` needs it.
    expect(res.modules.filter((m) => m.startsWith('src/http/'))).toEqual([]);
  });

  it('a command on an embedded database another process holds asks that process, loading none of the work', async () => {
    const held = join(dir, 'held');
    mkdirSync(held);
    // This test's process is alive and is not the CLI's: it holds the directory, with no control channel to ask.
    writeFileSync(join(held, 'tech-events.pid'), String(process.pid));
    const res = await loaded(['rsvps', 'list', 'some-event'], held);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`is in use by process ${process.pid}`);
    expect(res.modules.filter((m) => WORK.test(m))).toEqual([]);
  });
});
