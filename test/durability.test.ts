import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission } from './helpers/submission.js';

/**
 * The embedded engine keeps what it acknowledged through an OS crash: the running PGlite has fsync on unless the
 * operator turned it off (EMBEDDED_FSYNC=off), and an acknowledged write has been flushed to disk by the host.
 */
const settings = async (server: TestServer) => {
  const show = async (name: string) =>
    (await sql<Record<string, string>>`SHOW ${sql.raw(name)}`.execute(server.service.ctx.storage.db)).rows[0]?.[name];
  return {
    fsync: await show('fsync'),
    synchronous_commit: await show('synchronous_commit'),
    full_page_writes: await show('full_page_writes'),
    wal_sync_method: await show('wal_sync_method'),
  };
};

describe('durability of the embedded engine', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await server?.close();
    server = undefined;
  });

  it('runs with fsync on by default and flushes an acknowledged write to disk', async () => {
    server = await startTestServer('pglite');
    expect(await settings(server)).toEqual({
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      wal_sync_method: 'fsync',
    });
    const key = await server.createKey();
    const flushes = vi.spyOn(fs, 'fsyncSync');
    const response = await fetch(`${server.base}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(submission()),
    });
    expect(response.status).toBe(201);
    // The commit's WAL reached the host's fsync before the answer went out.
    expect(flushes).toHaveBeenCalled();
  });

  it('runs with fsync off when the operator says EMBEDDED_FSYNC=off', async () => {
    server = await startTestServer('pglite', { env: { EMBEDDED_FSYNC: 'off' } });
    expect((await settings(server)).fsync).toBe('off');
  });

  it('refuses an EMBEDDED_FSYNC it does not understand', () => {
    expect(loadConfig({ EMBEDDED_FSYNC: 'off' }).embeddedFsync).toBe(false);
    expect(loadConfig({}).embeddedFsync).toBe(true);
    expect(() => loadConfig({ EMBEDDED_FSYNC: 'sometimes' })).toThrow(ConfigError);
  });
});
