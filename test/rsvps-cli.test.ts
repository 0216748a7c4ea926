import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { runCli } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2025-03-01T09:00:00Z';
const handleOf = (key: string) => `key:${key.split('_')[1]}`;

/**
 * The operator answers an event's RSVPs on the command line, against a running service: on the embedded engine over
 * its control socket, on PostgreSQL on the database itself.
 */
describe.each(ENGINES)('tech-events rsvps against a running service, on %s', (engine) => {
  let svc: TestServer;
  let env: Record<string, string>;
  let guests: string[];

  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${svc.base}${path}`, init);
  const cli = async (...args: string[]) => {
    const run = await runCli(['rsvps', ...args], env);
    if (engine === 'pglite' && run.status === 0) expect(run.stderr).toMatch(/owns its embedded database: it did this/);
    return run;
  };
  const own = async (key: string) => (await api('/api/events/cto-dinner/rsvp', { key })).body;

  beforeAll(async () => {
    svc = await startTestServer(engine, { now: NOW });
    env = { ...svc.storageEnv, TECH_EVENTS_NOW: NOW, BASE_URL: svc.base };
    const host = await svc.createKey('Host', 'ch');
    const pushed = await api('/api/events', {
      key: host,
      json: {
        externalId: 'inv',
        title: 'CTO Dinner',
        startAt: '2025-03-07T19:00:00+01:00',
        city: 'Zürich',
        regMode: 'invite',
        capacity: 1,
      },
    });
    expect(pushed.status).toBe(201);
    guests = await Promise.all(['A', 'B', 'C'].map((n) => svc.createKey(`Guest ${n}`, 'ch')));
    for (const key of guests) {
      expect((await api('/api/events/cto-dinner/rsvp', { method: 'POST', key })).body.status).toBe('requested');
    }
  }, 120_000);
  afterAll(() => svc?.close());

  it('lists, approves, declines and sets the capacity, which promotes the waitlist in order', async () => {
    const [a, b, c] = guests as [string, string, string];
    const list = await cli('list', 'cto-dinner');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(
      'cto-dinner: invite, capacity 1; 0 registered, 0 waitlisted, 3 requested, 0 declined',
    );
    expect(list.stdout).toContain(`${handleOf(a)}\trequested\t`);

    const approved = await cli('approve', 'cto-dinner', handleOf(a));
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`${handleOf(a)} on cto-dinner: registered.`);
    expect((await cli('approve', 'cto-dinner', handleOf(b))).stdout).toContain('waitlisted (place 1 on the waitlist)');
    expect((await cli('decline', 'cto-dinner', handleOf(c))).stdout).toContain('declined');
    expect((await own(c)).status).toBe('declined');

    const raised = await cli('capacity', 'cto-dinner', '2');
    expect(raised.status, raised.stderr).toBe(0);
    expect(raised.stdout).toContain(
      'cto-dinner: capacity 2; 1 promoted from the waitlist; 2 registered, 0 waitlisted.',
    );
    expect((await own(b)).status).toBe('registered');
    expect((await cli('capacity', 'cto-dinner', 'none')).stdout).toContain('capacity none;');
    const after = await cli('list', 'cto-dinner');
    expect(after.stdout).toContain('capacity none; 2 registered, 0 waitlisted, 0 requested, 1 declined');
  }, 120_000);

  it('refuses bad arguments with the usage (2) and unknown events or handles (1)', async () => {
    expect((await cli('list')).status).toBe(2);
    expect((await cli('approve', 'cto-dinner')).status).toBe(2);
    expect((await cli('capacity', 'cto-dinner', '0')).status).toBe(2);
    expect((await cli('capacity', 'cto-dinner', 'lots')).status).toBe(2);
    expect((await cli('bogus')).status).toBe(2);
    const missing = await cli('list', 'no-such-event');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/No event/);
    const nobody = await cli('approve', 'cto-dinner', 'key:000000000000');
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toMatch(/no RSVP by/);
  }, 120_000);
});
