import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDataDir } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { runCli, spawnServer, waitForExit } from './helpers/process.js';
import { freePort } from './helpers/server.js';

/** Each test runs the CLI as several processes in turn: seconds each, more on a machine other work keeps busy. */
const SPAWNING = { timeout: 240_000 };

describe('tech-events CLI on the embedded engine', SPAWNING, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tev-cli-'));
  const env = { DATA_DIR: dataDir };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  let keyId = '';
  let key = '';

  it('creates a key and prints it as the last line of stdout', async () => {
    const res = await runCli(['keys', 'create', '--name', 'Basel Devs', '--country', 'ch'], env);
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    key = lines.at(-1)!;
    expect(key).toMatch(/^tev_[a-f0-9]{12}_[A-Za-z0-9_-]{43}$/);
    keyId = key.slice(4, 16);
    expect(res.stdout).toContain(keyId);
  });

  it('lists keys without their secrets', async () => {
    const res = await runCli(['keys', 'list'], env);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain(keyId);
    expect(res.stdout).toContain('Basel Devs');
    expect(res.stdout).not.toContain(key.slice(17));
  });

  it('refuses bad arguments with exit code 2 and the usage', async () => {
    // Side by side: none of them opens the database.
    const [res, noName, unknown] = await Promise.all([
      runCli(['keys', 'create', '--country', 'fr', '--name', 'X'], env),
      runCli(['keys', 'create'], env),
      runCli(['frobnicate'], env),
    ]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--country must be ch, de or at/);
    expect(noName.status).toBe(2);
    expect(unknown.status).toBe(2);
  });

  it('asks the running server over its owner-only socket while it owns the data directory; the admin API works too', async () => {
    const port = await freePort();
    const server = await spawnServer({ ...env, ADMIN_TOKEN: 'admin-secret-token' }, port);
    const serverPid = String(server.child.pid);
    try {
      // The channel: a socket in the data directory that only its owner may open.
      const socket = statSync(join(dataDir, 'tech-events.sock'));
      expect(socket.isSocket()).toBe(true);
      expect(socket.mode & 0o777).toBe(0o600);

      // A key made while the server runs works at once, and the command says who made it.
      const created = await runCli(['keys', 'create', '--name', 'Running Host', '--country', 'de'], env);
      expect(created.status, created.stderr).toBe(0);
      expect(created.stderr).toContain(`(process ${serverPid}) owns its embedded database: it did this.`);
      const runningKey = created.stdout.trim().split('\n').at(-1)!;
      expect(runningKey).toMatch(/^tev_[a-f0-9]{12}_[A-Za-z0-9_-]{43}$/);
      const write = await request(`${server.base}/api/events`, {
        key: runningKey,
        json: { title: 'Made while running', startAt: '2030-01-01T10:00:00+01:00', city: 'Köln' },
      });
      expect(write.status).toBe(201);
      const listed = await runCli(['keys', 'list'], env);
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain('Basel Devs');
      expect(listed.stdout).toContain('Running Host');
      expect(listed.stdout).not.toContain(runningKey.slice(17));
      const revoked = await runCli(['keys', 'revoke', runningKey.slice(4, 16)], env);
      expect(revoked.status).toBe(0);
      expect(revoked.stdout).toContain(`Revoked key ${runningKey.slice(4, 16)}.`);
      expect((await request(`${server.base}/api/events?mine=1`, { key: runningKey })).status).toBe(401);
      // A refusal comes back as it would from the database itself.
      const rotated = await runCli(['keys', 'rotate', runningKey.slice(4, 16)], env);
      expect(rotated.status).toBe(1);
      expect(rotated.stderr).toMatch(/cannot be rotated.*\(key-revoked\)/);

      // sync too: the server reads the feeds file and its index shows the events at once.
      const feedsDir = mkdtempSync(join(tmpdir(), 'tev-cli-feeds-'));
      writeFileSync(
        join(feedsDir, 'events.jsonl'),
        `${JSON.stringify({ externalId: 'f-1', title: 'Synced While Running', startAt: '2030-02-01T18:00:00+01:00', city: 'Graz' })}\n`,
      );
      writeFileSync(
        join(feedsDir, 'feeds.json'),
        JSON.stringify([{ source: 'running-feed', format: 'jsonl', url: join(feedsDir, 'events.jsonl') }]),
      );
      const sync = await runCli(['sync', '--feeds', join(feedsDir, 'feeds.json')], env);
      // import is not asked of the server: it still says the database is in use, and what to do.
      const imported = await runCli(
        ['import', join(feedsDir, 'events.jsonl'), '--format', 'jsonl', '--source', 'x'],
        env,
      );
      rmSync(feedsDir, { recursive: true, force: true });
      expect(imported.status).toBe(1);
      expect(imported.stderr).toMatch(/in use by process \d+/);
      expect(sync.status, sync.stderr).toBe(0);
      expect(sync.stdout).toMatch(/^running-feed \(jsonl .*events\.jsonl\): created 1, updated 0/m);
      const graz = await request(`${server.base}/api/events?country=at&q=Synced`);
      expect(graz.body.events.map((e: { title: string }) => e.title)).toEqual(['Synced While Running']);
      expect(server.output()).toMatch(/"via":"cli".*feed running-feed synced/);

      const unauth = await request(`${server.base}/api/admin/keys`);
      expect(unauth.status).toBe(401);
      const wrong = await request(`${server.base}/api/admin/keys`, { key: 'nope' });
      expect(wrong.status).toBe(401);
      const viaAdmin = await request(`${server.base}/api/admin/keys`, {
        key: 'admin-secret-token',
        json: { name: 'Via Admin', country: 'at' },
      });
      expect(viaAdmin.status).toBe(201);
      expect(viaAdmin.body.key).toMatch(/^tev_/);
      const adminWrite = await request(`${server.base}/api/events`, {
        key: viaAdmin.body.key,
        json: { title: 'Admin-made key event', startAt: '2030-01-01T10:00:00+01:00', format: 'online' },
      });
      expect(adminWrite.status).toBe(201);
      expect(adminWrite.body.url).toContain('/at/events/');
      // The key from the CLI works against the server too.
      const withCliKey = await request(`${server.base}/api/events?mine=1`, { key });
      expect(withCliKey.status).toBe(200);
      const list = await request(`${server.base}/api/admin/keys`, { key: 'admin-secret-token' });
      expect(list.body.keys.map((k: { name: string }) => k.name)).toEqual(['Basel Devs', 'Running Host', 'Via Admin']);
      expect(JSON.stringify(list.body)).not.toContain(key);
      // Keys never reach the logs.
      for (const secret of [key, runningKey, viaAdmin.body.key as string])
        expect(server.output()).not.toContain(secret.slice(17));
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
    // Stopped, the server leaves no socket behind, and the CLI opens the database itself again.
    expect(existsSync(join(dataDir, 'tech-events.sock'))).toBe(false);
  });

  it('revokes a key, after which the server answers 401', async () => {
    const unknown = await runCli(['keys', 'revoke', '000000000000'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No key with id "000000000000"/);
    const res = await runCli(['keys', 'revoke', keyId], env);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Revoked/);
    const port = await freePort();
    const server = await spawnServer(env, port);
    try {
      const mine = await request(`${server.base}/api/events?mine=1`, { key });
      expect(mine.status).toBe(401);
      const admin = await request(`${server.base}/api/admin/keys`, { key: 'x' });
      expect(admin.status).toBe(404);
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
  });
});

describe('tech-events keys rotate', SPAWNING, () => {
  const dataDir = createDataDir('tev-cli-rotate-');
  const env = { DATA_DIR: dataDir };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1)!;
  let keyId = '';
  let first = '';
  let second = '';
  let third = '';

  it('prints the new key of the same id as the last line; with --grace, says until when the old one works', async () => {
    first = lastLine((await runCli(['keys', 'create', '--name', 'Rotating Devs', '--country', 'de'], env)).stdout);
    keyId = first.slice(4, 16);

    const now = await runCli(['keys', 'rotate', keyId], env);
    expect(now.status, now.stderr).toBe(0);
    second = lastLine(now.stdout);
    expect(second).toMatch(/^tev_[a-f0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(second.slice(4, 16)).toBe(keyId);
    expect(second).not.toBe(first);
    expect(now.stdout).toMatch(/previous secret no longer works/);

    const before = Date.now();
    const graced = await runCli(['keys', 'rotate', keyId, '--grace', '2h'], env);
    expect(graced.status, graced.stderr).toBe(0);
    third = lastLine(graced.stdout);
    expect(third.slice(4, 16)).toBe(keyId);
    const until = /works until (\S+)\./.exec(graced.stdout)?.[1];
    expect(Date.parse(until!) - before).toBeGreaterThanOrEqual(2 * 3600_000 - 60_000);
    expect(Date.parse(until!) - before).toBeLessThanOrEqual(2 * 3600_000 + 60_000);

    const list = await runCli(['keys', 'list'], env);
    expect(list.stdout).toContain(`${keyId}\tde\tactive, previous secret until ${until}\tRotating Devs`);
    for (const key of [first, second, third]) expect(list.stdout).not.toContain(key.slice(17));
  });

  it('refuses bad arguments with exit code 2 before touching the key, and an unknown or revoked key with 1', async () => {
    const bad = [
      ['keys', 'rotate'],
      ['keys', 'rotate', keyId, 'other'],
      ['keys', 'rotate', keyId, '--grace', '2x'],
      ['keys', 'rotate', keyId, '--grace', '31d'],
      ['keys', 'rotate', keyId, '--grace'],
      ['keys', 'rotate', keyId, '--soon'],
    ];
    // Side by side: none of them opens the database (if one did, the others would find it locked).
    const [soon, ...refused] = await Promise.all(
      [['keys', 'rotate', keyId, '--grace', 'soon'], ...bad].map((args) => runCli(args, env)),
    );
    for (const [i, res] of refused.entries()) {
      expect(res.status, bad[i]!.join(' ')).toBe(2);
      expect(res.stderr, bad[i]!.join(' ')).toMatch(/Usage: tech-events/);
    }
    expect(soon!.stderr).toMatch(/--grace must be a duration such as 30m, 2h or 1d/);
    const unknown = await runCli(['keys', 'rotate', '000000000000'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No key with id "000000000000"/);
    expect(unknown.stdout).not.toMatch(/tev_/);
  });

  it('serves the new key and, during the grace period, the one before; the oldest gets 401', async () => {
    const port = await freePort();
    const server = await spawnServer(env, port);
    try {
      const api = `${server.base}/api/events`;
      const created = await request(api, {
        key: third,
        json: { title: 'Rotation Night', startAt: '2030-01-01T18:00:00+01:00', city: 'Berlin', externalId: 'rn' },
      });
      expect(created.status).toBe(201);
      const resent = await request(api, {
        key: second,
        json: { title: 'Rotation Night', startAt: '2030-01-01T18:00:00+01:00', city: 'Berlin', externalId: 'rn' },
      });
      expect(resent.body).toMatchObject({ id: created.body.id, created: false });
      expect((await request(`${api}?mine=1`, { key: first })).status).toBe(401);
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
  });

  it('refuses to rotate a revoked key with exit code 1', async () => {
    expect((await runCli(['keys', 'revoke', keyId], env)).status).toBe(0);
    const res = await runCli(['keys', 'rotate', keyId], env);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/revoked/);
    expect(res.stderr).toMatch(/key-revoked/);
    expect(res.stdout).not.toMatch(/tev_/);
    expect((await runCli(['keys', 'list'], env)).stdout).toMatch(new RegExp(`${keyId}\\tde\\trevoked `));
  });
});

describe('the node flags the service starts with', () => {
  it('are the same for npm start and the tech-events command', () => {
    const root = new URL('../', import.meta.url);
    const scripts = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts as Record<string, string>;
    const shebang = readFileSync(new URL('bin/tech-events.js', root), 'utf8').split('\n')[0];
    expect(scripts.start).toBe('node --concurrent-marking-max-worker-num=1 bin/tech-events.js serve');
    expect(shebang).toBe('#!/usr/bin/env -S node --concurrent-marking-max-worker-num=1');
  });
});
