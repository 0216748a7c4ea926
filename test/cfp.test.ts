import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confsTechImporter } from '../src/importers/confs-tech.js';
import { runImport } from '../src/use-cases/import-records.js';
import { openTestContext } from './helpers/context.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Calls for papers: on write and from sources, in the read shape, the cfp=open filter, pages and a deadline calendar. */
const NOW = '2026-11-23T09:00:00Z';

describe.each(ENGINES)('calls for papers on %s', (engine) => {
  let server: TestServer;
  let key: string;
  const post = (json: Record<string, unknown>) => request(`${server.base}/api/events`, { key, json });

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW });
    key = await server.createKey('Conference Hosts', 'de');
    const conference = (externalId: string, title: string, extra: Record<string, unknown>) =>
      post({ externalId, title, startAt: '2027-05-10', endAt: '2027-05-11', allDay: true, city: 'Berlin', ...extra });
    for (const res of await Promise.all([
      conference('late', 'Late CFP Conf', { cfpUrl: 'https://cfp.example.org/late', cfpUntil: '2027-02-15' }),
      conference('soon', 'Soon CFP Conf', {
        cfpUrl: 'https://cfp.example.org/soon',
        cfpUntil: '2026-12-01T23:59:00+01:00',
      }),
      conference('closed', 'Closed CFP Conf', { cfpUrl: 'https://cfp.example.org/closed', cfpUntil: '2026-11-01' }),
      conference('none', 'No CFP Conf', {}),
    ]))
      expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the call in the read shape as written, null without one', async () => {
    const { body } = await request(`${server.base}/api/events?country=de&q=conf`);
    const byTitle = Object.fromEntries(body.events.map((e: { title: string }) => [e.title, e]));
    expect(byTitle['Late CFP Conf'].cfp).toEqual({ url: 'https://cfp.example.org/late', until: '2027-02-15' });
    expect(byTitle['Soon CFP Conf'].cfp.until).toBe('2026-12-01T23:59:00+01:00');
    expect(byTitle['No CFP Conf'].cfp).toBeNull();
  });

  it('filters open calls with cfp=open, the soonest deadline first, and says so', async () => {
    const { body } = await request(`${server.base}/api/events?country=de&cfp=open`);
    expect(body.events.map((e: { title: string }) => e.title)).toEqual(['Soon CFP Conf', 'Late CFP Conf']);
    expect(body.understood).toContain('with an open call for papers');
    expect(body.events[0].matchReasons).toContain('Call for papers open until Tue 1 Dec 2026, 23:59');
    expect(body.events[1].matchReasons).toContain('Call for papers open until Mon 15 Feb 2027');
    const ranked = await request(`${server.base}/api/events?country=de&cfp=open&q=late`);
    expect(ranked.body.events[0].title).toBe('Late CFP Conf');
    expect((await request(`${server.base}/api/events?cfp=closed`)).status).toBe(422);
  });

  it('gives each open deadline as a calendar event with reminders', async () => {
    const res = await request(`${server.base}/api/calendar?country=de&cfp=open`);
    expect(res.status).toBe(200);
    const vevents = new ICAL.Component(ICAL.parse(res.text)).getAllSubcomponents('vevent');
    const summaries = vevents.map((v) => v.getFirstPropertyValue('summary'));
    expect(summaries).toEqual(['Call for papers closes: Soon CFP Conf', 'Call for papers closes: Late CFP Conf']);
    const late = vevents[1]!;
    expect((late.getFirstPropertyValue('dtstart') as ICAL.Time).toString()).toBe('2027-02-15');
    expect(late.getFirstPropertyValue('url')).toBe('https://cfp.example.org/late');
    expect(late.getAllSubcomponents('valarm')).toHaveLength(2);
  });

  it('shows an open call on the event page, and refuses a malformed one on write', async () => {
    const page = await request(`${server.base}/de/events/late-cfp-conf?hl=en`);
    expect(page.text).toContain('Call for papers open until');
    expect(page.text).toContain('https://cfp.example.org/late');
    const closed = await request(`${server.base}/de/events/closed-cfp-conf?hl=en`);
    expect(closed.text).not.toContain('Call for papers open');
    const bad = await post({ title: 'X', startAt: '2027-01-10T10:00:00+01:00', city: 'Berlin', cfpUntil: 'soon' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('cfpUntil');
    const badUrl = await post({ title: 'X', startAt: '2027-01-10T10:00:00+01:00', city: 'Berlin', cfpUrl: 'ftp://x' });
    expect(badUrl.body.errors[0].field).toBe('cfpUrl');
  });
});

describe('calls for papers from sources', () => {
  it('carries confs.tech cfpUrl and cfpEndDate into the catalogue', async () => {
    const test = await openTestContext('pglite', NOW);
    try {
      const input = JSON.stringify([
        {
          name: 'CFP Source Conf',
          url: 'https://example.org/conf',
          startDate: '2027-06-01',
          endDate: '2027-06-02',
          city: 'Vienna',
          country: 'Austria',
          cfpUrl: 'https://example.org/cfp',
          cfpEndDate: '2027-01-31',
        },
      ]);
      const report = await runImport(test.ctx, confsTechImporter, input, { source: 'confs-tech' });
      expect(report.created).toBe(1);
      const [event] = await test.ctx.events.listByOwner('source:confs-tech');
      expect(event).toMatchObject({ cfpUrl: 'https://example.org/cfp', cfpUntil: '2027-01-31' });
    } finally {
      await test.close();
    }
  });
});
