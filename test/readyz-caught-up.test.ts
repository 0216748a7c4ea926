import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission } from './helpers/submission.js';

/**
 * `/readyz` says `caughtUp: true` only once the node's index holds every change the database announced before the
 * request: asked right after another node's write, while the notification is on its way or its refresh is due, it
 * waits for it instead of answering from before it. Two nodes of one PostgreSQL, in this process.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('readiness after another node wrote', () => {
  let reader: TestServer;
  let writer: TestServer;
  let key: string;

  beforeAll(async () => {
    reader = await startTestServer('postgres', { now: '2026-11-23T09:00:00Z' });
    writer = await startTestServer('postgres', { now: '2026-11-23T09:00:00Z', storageEnv: reader.storageEnv });
    key = await writer.createKey('Ready Host', 'ch');
  }, 60_000);
  afterAll(async () => {
    await writer?.close({ keepData: true });
    await reader?.close();
  });

  it('is caught up only when the index holds the write announced before the request', async () => {
    const missed: string[] = [];
    for (let i = 0; i < 30; i++) {
      const written = await request<{ id: string }>(`${writer.base}/api/events`, {
        key,
        json: submission({ externalId: `ready-${i}`, title: `Readiness check ${i}` }),
      });
      expect(written.status).toBe(201);
      const ready = await request<{ checks: { caughtUp: boolean } }>(`${reader.base}/readyz`);
      // Read in the turn the answer arrived: nothing has had the time to apply the write since.
      const held = reader.service.ctx.index.holds(written.body.id, 1);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.caughtUp).toBe(true);
      if (!held) missed.push(written.body.id);
    }
    expect(missed).toEqual([]);
  });
});
