import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityHost } from './helpers/community-host.js';
import { ENGINES } from './helpers/engines.js';
import { adminSync, request } from './helpers/http.js';
import { runCli } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'proposals-cli-admin';

/**
 * The operator's queue on the command line, against a running service: on the embedded engine the service owns the
 * database and does the work over its control socket; on PostgreSQL the command does it itself.
 */
describe.each(ENGINES)('tech-events proposals against a running service, on %s', (engine) => {
  const host = communityHost();
  let svc: TestServer;
  let cal: string;
  let env: Record<string, string>;

  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${svc.base}${path}`, init);
  const cli = async (...args: string[]) => {
    const run = await runCli(['proposals', ...args], env);
    if (engine === 'pglite' && run.status === 0) expect(run.stderr).toMatch(/owns its embedded database: it did this/);
    return run;
  };
  const read = async (id: string) => {
    for (const until = Date.now() + 30_000; ; ) {
      const res = await api(`/api/proposals/${id}`);
      if (res.body.state !== 'reading' || Date.now() > until) return res;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const listed = async () =>
    ((await api('/api/events?limit=100')).body.events as { title: string; source: string }[]).filter(
      (e) => e.source === 'community',
    );
  /** The serving process sees what a command wrote on PostgreSQL once its index has caught up. */
  const eventually = async <T>(check: () => Promise<T>, ok: (value: T) => boolean): Promise<T> => {
    for (const until = Date.now() + 10_000; ; ) {
      const value = await check();
      if (ok(value) || Date.now() > until) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    cal = await host.listen();
    const allow = { CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32' };
    svc = await startTestServer(engine, { now: NOW, env: { ...allow, ADMIN_TOKEN: ADMIN } });
    env = { ...svc.storageEnv, ...allow, TECH_EVENTS_NOW: NOW, BASE_URL: svc.base };
  });
  afterAll(async () => {
    await svc?.close();
    await host.close();
  });

  let id = '';
  it('lists and shows the queue; refuses bad arguments with the usage', async () => {
    id = (await api('/api/calendars/proposals', { json: { url: `${cal}/zurich-ai/events/ical/`, city: 'Zürich' } }))
      .body.id;
    await read(id);
    const list = await cli('list', '--state', 'waiting');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(`${id}\tcalendar\twaiting\t`);
    expect(list.stdout).toContain(`${cal}/zurich-ai/events/ical/\tok, 2 upcoming`);
    const shown = await cli('show', id);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('preview (');
    expect(shown.stdout).toMatch(/Zurich AI: evals night\tZürich \(calendar\)/);
    expect((await cli('list', '--state', 'bogus')).status).toBe(2);
    expect((await cli('reject', id)).status).toBe(2);
    expect((await cli('accept')).status).toBe(2);
    const missing = await cli('show', 'prp_00000000000000000000000000000000');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/No proposal/);
  }, 120_000);

  it('accepts a calendar: read at once, synced on after the feeds, named in /api/sources', async () => {
    const accepted = await cli('accept', id);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`Accepted ${id}.`);
    expect(accepted.stdout).toContain('first read: created 3');
    expect(accepted.stdout).toMatch(/\taccept\tby cli/);
    const titles = (await eventually(listed, (l) => l.length === 2)).map((e) => e.title).sort();
    expect(titles).toEqual(['Zurich AI: December social', 'Zurich AI: evals night']);
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.feeds.map((f: { source: string }) => f.source)).toContain('community');
    expect(await listed()).toHaveLength(2);
    const community = ((await api('/api/sources')).body.sources as Record<string, any>[]).find(
      (s) => s.source === 'community',
    )!;
    expect(community.calendars).toEqual([
      expect.objectContaining({ id, proposedBy: 'community', acceptedAt: expect.any(String) }),
    ]);
    expect((await cli('accept', id)).status).toBe(1);
  }, 120_000);

  it('rejects with a reason the proposer reads', async () => {
    const other = (await api('/api/calendars/proposals', { json: { url: `${cal}/basel-rust/events/ical/` } })).body.id;
    await read(other);
    const rejected = await cli('reject', other, '--reason', 'Not in our region.');
    expect(rejected.status, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain(`Rejected ${other}: Not in our region.`);
    expect((await api(`/api/proposals/${other}`)).body).toMatchObject({
      state: 'rejected',
      reason: 'Not in our region.',
    });
    expect((await listed()).some((e) => e.title.startsWith('Rust Basel'))).toBe(false);
  }, 120_000);

  it('accepts a key request: its key shows once at the status URL', async () => {
    const asked = await api('/api/keys/requests', {
      json: { organisation: 'Bern Data Folks', country: 'ch', plans: 'Our meetups.' },
    });
    const accepted = await cli('accept', asked.body.id);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/key: \w+, not shown yet/);
    const first = await api(`/api/proposals/${asked.body.id}`);
    expect(first.body.keyRequest.key).toMatch(/^tev_/);
    expect((await api(`/api/proposals/${asked.body.id}`)).body.keyRequest.key).toBeUndefined();
    const pushed = await api('/api/events', {
      key: first.body.keyRequest.key,
      json: { title: 'Bern Data: graphs', startAt: '2026-12-09T18:30:00+01:00', city: 'Bern', venue: 'Effinger' },
    });
    expect(pushed.status, pushed.text).toBe(201);
  }, 120_000);

  it('removes an accepted calendar: its upcoming events are retired; the log names every decision', async () => {
    const removed = await cli('remove', id, '--reason', 'Spam after all.');
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Removed ${id}; 2 upcoming events retired.`);
    expect(await eventually(listed, (l) => l.length === 0)).toEqual([]);
    const shown = await cli('show', id);
    expect(shown.stdout).toMatch(/\taccept\tby cli\n.*\tremove\tby cli\tSpam after all\./);
  }, 120_000);
});
