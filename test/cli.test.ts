import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { runCli, spawnServer, waitForExit } from './helpers/process.js';
import { freePort } from './helpers/server.js';

describe('tech-events CLI on the embedded engine', () => {
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
    const res = await runCli(['keys', 'create', '--country', 'fr', '--name', 'X'], env);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--country must be ch, de or at/);
    expect((await runCli(['keys', 'create'], env)).status).toBe(2);
    expect((await runCli(['frobnicate'], env)).status).toBe(2);
  });

  it('fails with a clear message while the server owns the data directory, and the admin API works instead', async () => {
    const port = await freePort();
    const server = await spawnServer({ ...env, ADMIN_TOKEN: 'admin-secret-token' }, port);
    try {
      const res = await runCli(['keys', 'list'], env);
      expect(res.status).toBe(1);
      expect(res.stderr).toMatch(/in use by process \d+/);
      expect(res.stderr).toMatch(/ADMIN_TOKEN/);

      const unauth = await request(`${server.base}/api/admin/keys`);
      expect(unauth.status).toBe(401);
      const wrong = await request(`${server.base}/api/admin/keys`, { key: 'nope' });
      expect(wrong.status).toBe(401);
      const created = await request(`${server.base}/api/admin/keys`, {
        key: 'admin-secret-token',
        json: { name: 'Via Admin', country: 'at' },
      });
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^tev_/);
      const write = await request(`${server.base}/api/events`, {
        key: created.body.key,
        json: { title: 'Admin-made key event', startAt: '2030-01-01T10:00:00+01:00', format: 'online' },
      });
      expect(write.status).toBe(201);
      expect(write.body.url).toContain('/at/events/');
      // The key from the CLI works against the server too.
      const withCliKey = await request(`${server.base}/api/events?mine=1`, { key });
      expect(withCliKey.status).toBe(200);
      const list = await request(`${server.base}/api/admin/keys`, { key: 'admin-secret-token' });
      expect(list.body.keys.map((k: { name: string }) => k.name)).toEqual(['Basel Devs', 'Via Admin']);
      expect(JSON.stringify(list.body)).not.toContain(key);
      // Keys never reach the logs.
      expect(server.output()).not.toContain(key.slice(17));
      expect(server.output()).not.toContain(created.body.key.slice(17));
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
  });

  it('revokes a key, after which the server answers 401', async () => {
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
