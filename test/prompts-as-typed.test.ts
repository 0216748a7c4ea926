import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCalendar, parseMarkdownDocument } from './helpers/documents.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Issue 57's prompts as people type them, over HTTP: a year is a time window, a city answers to its local name, an
 * event named by its title is a match and first, a thin answer says which other countries hold what it asks, and
 * `query` echoes every filter applied. "Now" is Thursday 26 November 2026.
 */
const NOW = '2026-11-26T09:00:00Z';

const CATALOGUE: Record<string, unknown>[] = [
  {
    title: 'Security Summit Berlin',
    startAt: '2027-06-15',
    endAt: '2027-06-16',
    allDay: true,
    city: 'Berlin',
    topics: ['security'],
  },
  {
    title: 'Security Konferenz München',
    startAt: '2026-12-03',
    endAt: '2026-12-03',
    allDay: true,
    city: 'München',
    topics: ['security'],
  },
  { title: 'KI Meetup Zürich: Agents', startAt: '2026-12-02T18:30:00+01:00', city: 'Zürich', topics: ['ai-ml'] },
  {
    title: 'IT-Tage',
    startAt: '2026-12-07',
    endAt: '2026-12-10',
    allDay: true,
    city: 'Frankfurt am Main',
    topics: ['cloud-devops', 'security'],
  },
  {
    title: 'Devopsdays Zurich',
    startAt: '2027-03-10',
    endAt: '2027-03-11',
    allDay: true,
    city: 'Winterthur',
    topics: ['cloud-devops'],
  },
  {
    title: 'Devopsdays Geneva',
    startAt: '2027-05-19',
    endAt: '2027-05-20',
    allDay: true,
    city: 'Genève',
    topics: ['cloud-devops'],
  },
  { title: 'DevOps Meetup München', startAt: '2026-12-09T18:30:00+01:00', city: 'München', topics: ['cloud-devops'] },
  {
    title: 'Cloud Native Night Berlin',
    startAt: '2026-12-10T18:30:00+01:00',
    city: 'Berlin',
    topics: ['cloud-devops'],
  },
];

interface Answer {
  query: Record<string, unknown>;
  understood: string;
  total: number;
  events: { title: string }[];
  alternatives?: { title: string }[];
  widen?: { constraint: string; without: string; total: number; country?: string; url?: string }[];
}

describe('prompts as people type them', () => {
  let server: TestServer;
  const ask = async (query: string) => (await request<Answer>(`${server.base}/api/events?${query}`)).body;
  const q = (prompt: string) => `q=${encodeURIComponent(prompt)}`;
  const titles = (a: Answer) => a.events.map((e) => e.title);

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: NOW });
    const key = await server.createKey('Prompts', 'ch');
    for (const [i, event] of CATALOGUE.entries()) {
      const res = await request(`${server.base}/api/events`, { key, json: { ...event, externalId: `p-${i}` } });
      expect(res.status, res.text).toBe(201);
    }
  }, 60_000);
  afterAll(() => server?.close());

  it('reads a year as the local calendar year: 2027’s conference only, and says so', async () => {
    for (const prompt of ['security conference Germany 2027', 'Security-Konferenzen in Deutschland im Jahr 2027']) {
      const a = await ask(q(prompt));
      expect(a.understood, prompt).toMatch(/^Security conferences in Germany, in 2027$/);
      expect(titles(a), prompt).toEqual(['Security Summit Berlin']);
      expect(a.query.window).toEqual({ from: '2027-01-01', to: '2027-12-31' });
    }
    const calendar = parseCalendar(
      (await request(`${server.base}/api/calendar?${q('security conference Germany 2027')}`)).text,
    );
    expect(calendar.events.map(({ e }) => e.summary)).toEqual(['Security Summit Berlin']);
  });

  it('finds Zürich by what its people call it, and echoes the place as the city filter applied', async () => {
    const a = await ask(q('KI Meetup in Züri'));
    expect(a.understood).toBe('AI & ML meetups in or near Zürich');
    expect(titles(a)).toEqual(['KI Meetup Zürich: Agents']);
    expect(a.query).toMatchObject({ city: 'Zürich', near: true, kinds: ['meetup'] });
    const byParam = await ask(`city=${encodeURIComponent('Züri')}&from=2026-12-01&to=2026-12-31`);
    expect(byParam.query).toMatchObject({ city: 'Zürich', from: '2026-12-01', to: '2026-12-31' });
    expect(byParam.query.near).toBeUndefined();
    expect(titles(byParam)).toEqual(['KI Meetup Zürich: Agents']);
    // The titles of the documents restate the filters too.
    const filtered = 'city=Winti&near=1&format=in_person&from=2026-12-01&lang=de';
    const md = (await request(`${server.base}/api/md?${filtered}`)).text;
    expect(md.split('\n')[0]).toBe('# Tech events · near Winterthur · in person · held in German · from 2026-12-01');
    const ics = parseCalendar((await request(`${server.base}/api/calendar?${filtered}`)).text);
    expect(ics.component.getFirstPropertyValue('x-wr-calname')).toBe(
      'Tech events · near Winterthur · in person · held in German · from 2026-12-01',
    );
    expect((await ask('city=Winti&near=1&format=in_person')).query).toMatchObject({
      city: 'Winterthur',
      near: true,
      formats: ['in_person'],
    });
  });

  it('lists the event a prompt names by its title first, wherever it is, the same in JSON, markdown and iCal', async () => {
    const a = await ask(q('IT-Tage'));
    expect(a.query.country).toBe('de');
    expect(a.understood.startsWith('The event titled “IT-Tage”, then conferences in Germany')).toBe(true);
    expect(titles(a)[0]).toBe('IT-Tage');
    expect(titles(a)).not.toContain('Devopsdays Zurich');
    const md = parseMarkdownDocument((await request(`${server.base}/api/md?${q('IT-Tage')}`)).text, server.base);
    expect(md.matches.rows.slice(1).map((row) => row[1])).toEqual(titles(a));
    const ics = parseCalendar((await request(`${server.base}/api/calendar?${q('IT-Tage')}`)).text);
    expect(ics.events.map(({ e }) => e.summary).sort()).toEqual([...titles(a)].sort());
    // Its edition's year is no part of the name; a window still holds.
    expect(titles(await ask(q('IT-Tage 2026')))[0]).toBe('IT-Tage');
    expect(titles(await ask(q('IT-Tage 2027')))).not.toContain('IT-Tage');
  });

  it('offers the other countries holding what a place named finds nothing of, with the query to follow', async () => {
    const a = await ask(q('DevOps Wien'));
    expect(a.total).toBe(0);
    const germany = a.widen?.find((w) => w.country === 'de');
    expect(germany).toMatchObject({ constraint: 'place', without: 'in or near Wien', total: 3 });
    const followed = await ask(germany!.url!.slice(`${server.base}/api/events?`.length));
    expect(followed.total).toBe(3);
    expect(followed.understood).toBe('Cloud & DevOps events in Germany');
    expect(a.widen?.find((w) => w.country === 'ch')).toMatchObject({ total: 2 });
    const md = (await request(`${server.base}/api/md?${q('DevOps Wien')}`)).text;
    expect(md).toContain(`without “in or near Wien”, 3 in Germany (<${server.base}/api/md?country=de&q=DevOps>)`);
    const page = (await request(`${server.base}/at?${q('DevOps Wien')}&hl=en`)).text;
    expect(page).toContain('<a href="/de?q=DevOps&amp;hl=en">in Germany</a>');
  });

  it('says, with no place named, which other countries hold matches when the country searched has none or few', async () => {
    const none = await ask(q('DevOps Meetup'));
    expect(none.total).toBe(0);
    expect(none.widen?.find((w) => w.country === 'de')).toMatchObject({ constraint: 'country', total: 2 });
    const thin = await ask(q('DevOps'));
    expect(titles(thin)).toEqual(['Devopsdays Zurich', 'Devopsdays Geneva']);
    const germany = thin.widen?.find((w) => w.country === 'de');
    expect(germany).toMatchObject({ constraint: 'country', without: 'in Switzerland', total: 3 });
    const followed = await ask(germany!.url!.slice(`${server.base}/api/events?`.length));
    expect(followed.understood).toBe('Cloud & DevOps events in Germany');
    expect(followed.total).toBe(3);
  });

  it('tells an assistant over MCP the other countries and the URLs to follow', async () => {
    const client = await connectMcp(server.base);
    try {
      const text = async (q: string) => {
        const result = await client.callTool({ name: 'search_events', arguments: { q } });
        return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
      };
      expect(await text('DevOps Wien')).toContain(
        `without “in or near Wien”: 3 in Germany (<${server.base}/api/events?country=de&q=DevOps>)`,
      );
      expect(await text('DevOps')).toContain(
        `Other countries hold more — without “in Switzerland”: 3 in Germany (<${server.base}/api/events?country=de&q=DevOps>)`,
      );
    } finally {
      await client.close();
    }
  });
});
