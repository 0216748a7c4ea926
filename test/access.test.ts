import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, parseKey, secretMatches } from '../src/auth/api-keys.js';
import { sourceOwner } from '../src/catalogue/event.js';
import { resolveSubmission } from '../src/catalogue/resolve-content.js';
import { KEY_QUERY_PARAMETERS } from '../src/http/authenticate.js';
import { rotateKey } from '../src/use-cases/keys.js';
import { upsertEvent } from '../src/use-cases/store-events.js';
import { expectSecurityHeaders } from './helpers/documents.js';
import { ENGINES } from './helpers/engines.js';
import { expectProblem } from './helpers/fuzz.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { runCli, spawnServer, waitForExit } from './helpers/process.js';
import { freePort, startTestServer, type TestServer } from './helpers/server.js';

/** Who may do what: keys are secrets nobody else sees, and an event is only ever changed by its owner. */

const event = (externalId: string, overrides: Record<string, unknown> = {}) => ({
  title: `Owned ${externalId}`,
  startAt: '2026-06-01T18:00:00+02:00',
  city: 'Zürich',
  externalId,
  ...overrides,
});

describe.each(ENGINES)('owner checks on %s', (engine) => {
  let server: TestServer;
  let owner: string;
  let other: string;
  let api: string;
  let publicId: string;
  let unlistedId: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-01-15T12:00:00Z' });
    owner = await server.createKey('Owner Host', 'ch');
    other = await server.createKey('Other Host', 'ch');
    api = `${server.base}/api/events`;
    publicId = (await request(api, { key: owner, json: event('pub') })).body.id;
    unlistedId = (
      await request(api, {
        key: owner,
        json: event('hidden', { title: 'Secret Garden Party', visibility: 'unlisted' }),
      })
    ).body.id;
  });
  afterAll(() => server?.close());

  const state = async (id: string) => {
    const e = await server.service.ctx.events.findById(id);
    const log = await server.service.ctx.events.revisions(id);
    return { title: e!.title, lifecycle: e!.lifecycle, revision: e!.revision, log: log.length };
  };

  it('does not let another key cancel or restore by id (403), or reach the event by its externalId (404)', async () => {
    const before = await state(publicId);
    const attempts: [string, Parameters<typeof request>[1], number][] = [
      [`${api}?id=${publicId}`, { key: other, method: 'DELETE' }, 403],
      [`${api}?id=${publicId}&country=ch`, { key: other, method: 'DELETE' }, 403],
      [api, { key: other, json: { action: 'cancel', id: publicId } }, 403],
      [api, { key: other, json: { action: 'cancel', id: publicId, country: 'ch' } }, 403],
      [api, { key: other, json: { action: 'restore', id: publicId } }, 403],
      [`${api}?externalId=pub`, { key: other, method: 'DELETE' }, 404],
      [api, { key: other, json: { action: 'cancel', externalId: 'pub' } }, 404],
      [api, { key: other, json: { action: 'restore', externalId: 'pub' } }, 404],
    ];
    for (const [url, init, status] of attempts) {
      const res = await request(url, init);
      expect(res.status, `${init?.method ?? 'POST'} ${url} ${JSON.stringify(init?.json)}`).toBe(status);
      expectProblem(res, server.base);
      if (status === 403) expect(res.body.code).toBe('not-owner');
    }
    expect(await state(publicId)).toEqual(before);

    // Also when the owner has cancelled it: the other key cannot restore it.
    expect((await request(`${api}?id=${publicId}`, { key: owner, method: 'DELETE' })).status).toBe(200);
    const cancelled = await state(publicId);
    const restore = await request(api, { key: other, json: { action: 'restore', id: publicId } });
    expect(restore.status).toBe(403);
    expect(await state(publicId)).toEqual(cancelled);
    expect((await request(api, { key: owner, json: { action: 'restore', id: publicId } })).status).toBe(200);
  });

  it("does not let another key update: the same externalId makes the other key's own event", async () => {
    const before = await state(publicId);
    const res = await request(api, { key: other, json: event('pub', { title: 'Hijacked' }) });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(publicId);
    expect((await state(publicId)).title).toBe(before.title);
    expect((await server.service.ctx.events.findById(res.body.id))!.owner).not.toBe(
      (await server.service.ctx.events.findById(publicId))!.owner,
    );
  });

  it("does not let another key cancel an importer's event", async () => {
    const content = resolveSubmission(
      {
        title: 'Feed Event',
        startAt: '2026-07-01T18:00:00+02:00',
        city: 'Bern',
        format: 'in_person',
        regMode: 'open',
        price: 'unknown',
        visibility: 'public',
      },
      { country: 'ch', organizer: 'Feed' },
    );
    const { event: imported } = await upsertEvent(
      server.service.ctx.events,
      { owner: sourceOwner('feed'), externalId: 'f-1', source: 'feed', actor: 'import:feed' },
      content,
    );
    const res = await request(`${api}?id=${imported.id}`, { key: owner, method: 'DELETE' });
    expect(res.status).toBe(403);
    expect((await server.service.ctx.events.findById(imported.id))!.lifecycle).toBe('listed');
  });

  it("shows mine=1 only one's own events, and another host's unlisted events nowhere public", async () => {
    const mineOther = await request(`${api}?mine=1`, { key: other });
    const otherIds = mineOther.body.events.map((e: { id: string }) => e.id);
    expect(otherIds).not.toContain(publicId);
    expect(otherIds).not.toContain(unlistedId);
    const mineOwner = await request(`${api}?mine=1`, { key: owner });
    expect(mineOwner.body.events.map((e: { id: string }) => e.id)).toEqual(
      expect.arrayContaining([publicId, unlistedId]),
    );

    const q = encodeURIComponent('secret garden party'); // echoed by the outputs, but not in the title's case
    const listings = [
      `${api}?q=${q}`,
      `${api}?country=ch&limit=100`,
      `${api}?country=ch&org=${encodeURIComponent('Owner Host')}`,
      `${server.base}/api/md?q=${q}`,
      `${server.base}/ch.md`,
      `${server.base}/api/calendar?q=${q}`,
      `${server.base}/?q=${q}`,
      `${server.base}/ch?q=${q}`,
    ];
    for (const url of listings) {
      const res = await request(url);
      expect(res.status, url).toBe(200);
      expect(res.text, url).not.toContain('Secret Garden Party');
      expect(res.text, url).not.toContain(unlistedId);
    }
    const client = await connectMcp(server.base);
    for (const [name, args] of [
      ['search_events', { q: 'secret garden party' }],
      ['find_events', { country: 'ch' }],
      ['best_next_event', { wishes: 'secret garden party' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(JSON.stringify(result), name).not.toContain('Secret Garden Party');
    }
    await client.close();
    // Its page works for whoever has the link (documented).
    expect((await request(`${server.base}/ch/events/${unlistedId}`)).status).toBe(200);
  });

  it('refuses a key in the query string under every parameter name on the write routes too', async () => {
    for (const name of KEY_QUERY_PARAMETERS) {
      for (const init of [
        { key: owner, json: event('qs') },
        { key: owner, method: 'DELETE' },
        { json: { action: 'cancel', externalId: 'pub' } },
      ] as Parameters<typeof request>[1][]) {
        const res = await request(`${api}?${name}=${encodeURIComponent(owner)}`, init);
        expect(res.status, `${name} ${init?.method ?? 'POST'}`).toBe(400);
        expectProblem(res, server.base);
      }
    }
    expect((await request(`${api}?mine=1`, { key: owner })).body.events.map((e: any) => e.externalId)).not.toContain(
      'qs',
    );
  });

  it('stores only a SHA-256 hash of the secret, nowhere the key itself, also of a rotated key in its grace period', async () => {
    const key = await server.createKey('Hash Host', 'de');
    const { id, secret } = parseKey(key)!;
    expect((await request(api, { key, json: event('hash-1', { city: 'Berlin' }) })).status).toBe(201);
    const record = await server.service.ctx.keys.find(id);
    expect(record!.secretHash.equals(hashSecret(secret))).toBe(true);
    expect(record!.secretHash).toHaveLength(32);
    const rotated = parseKey((await rotateKey(server.service.ctx, id, { graceSeconds: 3600 })).key)!;
    const after = await server.service.ctx.keys.find(id);
    expect(after!.secretHash.equals(hashSecret(rotated.secret))).toBe(true);
    expect(after!.previousSecret!.hash.equals(hashSecret(secret))).toBe(true);
    // No text or JSON column of any table holds either secret.
    const db = server.service.ctx.storage.db;
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'bytea')`.execute(
      db,
    );
    for (const plain of [secret, rotated.secret]) {
      for (const { table_name, column_name } of columns) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from ${sql.table(table_name)}
          where position(${plain} in ${sql.ref(column_name)}::text) > 0
             or position(${Buffer.from(plain).toString('hex')} in ${sql.ref(column_name)}::text) > 0`.execute(db);
        expect(rows[0]!.n, `${table_name}.${column_name}`).toBe(0);
      }
    }
  });
});

describe('secrets in logs', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('never writes a key, a secret or the admin token to the logs, even at trace level', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tev-logs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DATA_DIR: dir };
    const key = (await runCli(['keys', 'create', '--name', 'Log Host'], env)).stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^tev_/);
    const adminToken = `admin-${'s3cr3t'.repeat(6)}`;
    const server = await spawnServer({ ...env, LOG_LEVEL: 'trace', ADMIN_TOKEN: adminToken }, await freePort());
    cleanups.push(async () => {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    });
    const api = `${server.base}/api/events`;
    const { secret } = parseKey(key)!;
    const forged = `${key.slice(0, -6)}AAAAAA`;

    expect((await request(api, { key, json: event('log-1') })).status).toBe(201);
    expect((await request(`${api}?mine=1`, { key })).status).toBe(200);
    expect((await request(`${api}?externalId=log-1`, { key, method: 'DELETE' })).status).toBe(200);
    expect((await request(api, { key: forged, json: event('log-2') })).status).toBe(401);
    expect((await request(api, { key: `${key}x`, json: event('log-3') })).status).toBe(401);
    expect((await request(api, { headers: { authorization: `Basic ${key}` }, json: event('log-4') })).status).toBe(401);
    for (const name of KEY_QUERY_PARAMETERS) {
      expect((await request(`${api}?mine=1&${name}=${encodeURIComponent(key)}`)).status).toBe(400);
    }
    const bad = await request(api, {
      key,
      body: `{"title": "${key}"`,
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const invalid = await request(api, { key, json: { ...event('log-5'), startAt: key } });
    expect(invalid.status).toBe(422);
    const mcp = await connectMcp(server.base, key);
    await mcp.callTool({ name: 'rsvp', arguments: { id: 'owned-log-1' } });
    await mcp.close();
    const admin = await request(`${server.base}/api/admin/keys`, {
      headers: { authorization: `Bearer ${adminToken}` },
      json: { name: 'Minted', country: 'at' },
    });
    expect(admin.status).toBe(201);
    const minted: string = admin.body.key;
    expect(minted).toMatch(/^tev_/);
    const rotation = await request(`${server.base}/api/admin/keys/${parseKey(minted)!.id}/rotate`, {
      headers: { authorization: `Bearer ${adminToken}` },
      json: { grace: '1h' },
    });
    expect(rotation.status).toBe(200);
    const rotated: string = rotation.body.key;
    expect((await request(`${api}?mine=1`, { key: rotated })).status).toBe(200);
    expect((await request(`${api}?mine=1`, { key: minted })).status).toBe(200);
    expect(
      (await request(`${server.base}/api/admin/keys`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    await new Promise((r) => setTimeout(r, 300)); // let the last log lines arrive

    const logs = server.output();
    expect(logs.length).toBeGreaterThan(1000);
    expect(logs).toContain('"msg":"request"');
    for (const [what, value] of [
      ['key', key],
      ['secret', secret],
      ['forged secret', parseKey(forged)!.secret],
      ['admin token', adminToken],
      ['minted key', minted],
      ['minted secret', parseKey(minted)!.secret],
      ['rotated key', rotated],
      ['rotated secret', parseKey(rotated)!.secret],
    ] as const) {
      expect(logs.includes(value), `${what} in the logs`).toBe(false);
    }
    expect(logs).not.toMatch(/tev_[a-f0-9]{12}_[A-Za-z0-9_-]{20,}/);
  }, 180_000);
});

describe('security headers of HTML pages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
  });
  afterAll(() => server?.close());

  it('sends CSP, nosniff, Referrer-Policy and frame denial on every page, error pages included', async () => {
    const pages: [string, number][] = [
      ['/', 200],
      ['/de', 200],
      ['/?q=devops', 200],
      ['/ch/events/devopsdays-zurich', 200],
      ['/ch/events/no-such-event', 404],
      ['/xx', 404],
      ['/?limit=0', 422],
    ];
    for (const [path, status] of pages) {
      // As a browser asks: a client that does not ask for HTML gets the problem+json of a 404 instead of its page.
      const res = await request(`${server.base}${path}`, { headers: { accept: 'text/html,*/*;q=0.8' } });
      expect(res.status, path).toBe(status);
      expectSecurityHeaders(res.headers, path);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp, path).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});

describe('constant-time key comparison', () => {
  it('accepts exactly the secret whose hash is stored', () => {
    const secret = 'A'.repeat(43);
    const stored = hashSecret(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${'A'.repeat(42)}B`, stored)).toBe(false);
    expect(secretMatches('', stored)).toBe(false);
    expect(secretMatches(secret, Buffer.alloc(16))).toBe(false); // a short stored hash never throws
  });
});
