import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NASTY, startEscapingServer } from './helpers/escaping-server.js';
import { request } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

interface TableNode {
  type: string;
  children: { children: { children: unknown[] }[] }[];
}

/** Parses markdown with a real GFM parser and returns the first table's rows as cell texts. */
function tableRows(markdown: string): { cells: number; text: string[] }[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const table = tree.children.find((n) => n.type === 'table') as unknown as TableNode;
  expect(table, 'a table').toBeDefined();
  const textOf = (node: any): string => (node.value ?? '') + (node.children ?? []).map(textOf).join('');
  return table.children.map((row) => ({ cells: row.children.length, text: row.children.map(textOf) }));
}

/** Counts the reads the read index ranks from now until `restore` is called. */
function countRanking(index: TestServer['service']['ctx']['index']) {
  const search = index.search;
  const counter = {
    ranked: 0,
    restore: () => {
      index.search = search;
    },
  };
  index.search = (...args) => {
    counter.ranked++;
    return search.apply(index, args);
  };
  return counter;
}

describe('markdown, iCal and caching over the same query engine', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    ({ server, key } = await startEscapingServer());
  });
  afterAll(() => server?.close());

  describe('markdown', () => {
    it('renders /ch.md in the spec layout with a 5-cell row per event', async () => {
      const res = await request(`${server.base}/ch.md`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const lines = res.text.split('\n');
      expect(lines[0]).toBe('# Tech events · Switzerland');
      expect(lines[2]).toMatch(/^\d+ upcoming events · CH · 1 Mar 2025$/);
      expect(lines[4]).toBe(`> This is a snapshot. The live list is always at <${server.base}/api/md?country=ch>`);
      const rows = tableRows(res.text);
      expect(rows[0]!.text).toEqual(['When', 'Event', 'Where', 'Host', 'Crowd']);
      const json = await request(`${server.base}/api/events?country=ch`);
      expect(rows.length - 1).toBe(json.body.count);
      for (const row of rows.slice(1)) {
        expect(row.cells).toBe(5);
        expect(row.text[0]).toMatch(
          /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d{4} · (\d\d:\d\d|Full day)/,
        );
        // A figure only from data (capacity, RSVPs); without any, no entry.
        expect(row.text[4]).toMatch(/^(~\d+ expected)?$/);
      }
      expect(rows.find((r) => r.text[1] === 'Plain Meetup')!.text[4]).toBe('');
    });

    it('escapes every markup character so a hostile title stays one cell', async () => {
      const res = await request(`${server.base}/api/md?q=Pipes`);
      const rows = tableRows(res.text);
      const row = rows.find((r) => r.text[1]?.startsWith('Pipes'));
      expect(row?.cells).toBe(5);
      expect(row!.text[1]).toBe(NASTY.replace('\n', ' '));
      expect(row!.text[2]).toBe('Bar | Café, Zürich');
      expect(row!.text[0]).toBe('Mon 10 Mar 2025 · 18:30');
      expect(row!.text[4]).toBe('~50 expected');
      const tree = fromMarkdown(res.text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
      const kinds = new Set<string>();
      const walk = (n: any) => {
        kinds.add(n.type);
        (n.children ?? []).forEach(walk);
      };
      walk(tree);
      for (const forbidden of ['html', 'emphasis', 'strong', 'inlineCode', 'delete', 'break'])
        expect(kinds.has(forbidden), forbidden).toBe(false);
    });

    it('shows all-day multi-day events without an invented clock time', async () => {
      const rows = tableRows((await request(`${server.base}/de.md?q=BASTA`)).text);
      expect(rows[1]!.text[0]).toBe('Mon 3 Mar 2025 · Full day, until Fri 7 Mar');
      expect(rows[1]!.text[2]).toBe('Frankfurt am Main · also online');
    });

    it('serves every path shape, each equal to the same query on /api/events', async () => {
      const shapes: [string, string][] = [
        ['/de/cities/munchen.md', 'country=de&city=München'],
        ['/ch/topics/web.md', 'country=ch&topic=web'],
        ['/ch.md?q=devops', 'country=ch&q=devops'],
        ['/api/md?org=basta.net&country=de', 'country=de&org=basta.net'],
      ];
      for (const [path, query] of shapes) {
        const md = await request(`${server.base}${path}`);
        expect(md.status, path).toBe(200);
        const json = await request(`${server.base}/api/events?${query}`);
        const linked = tableRows(md.text)
          .slice(1)
          .map((r) => r.text[1]);
        expect(linked, path).toEqual(json.body.events.map((e: { title: string }) => e.title.replace(/\n/g, ' ')));
      }
      expect((await request(`${server.base}/ch/topics/web.md`)).text).toMatch(/^# Tech events · Web/);
    });

    it('answers unknown country, city or topic with a 404 markdown body', async () => {
      for (const path of ['/fr.md', '/ch/cities/atlantis.md', '/ch/topics/astrology.md', '/xx/topics/web.md']) {
        const res = await request(`${server.base}${path}`);
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        expect(res.text).toMatch(/^# Not found/);
      }
      expect((await request(`${server.base}/api/md?limit=0`)).status).toBe(422);
    });
  });

  describe('HTTP caching', () => {
    it('compresses large bodies, and sets Cache-Control per output', async () => {
      const md = await fetch(`${server.base}/ch.md`, { headers: { 'accept-encoding': 'br' } });
      expect(md.headers.get('content-encoding')).toBe('br');
      expect(md.headers.get('cache-control')).toBe('public, max-age=60');
      expect(md.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await md.text()).toMatch(/^# Tech events/);
      const gz = await fetch(`${server.base}/api/events`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect((await request(`${server.base}/api/calendar`)).headers.get('cache-control')).toBe('public, max-age=300');
      expect((await request(`${server.base}/ch/events/devopsdays-zurich`)).headers.get('cache-control')).toBe(
        'public, max-age=300',
      );
      expect((await request(`${server.base}/api/events?mine=1`, { key })).headers.get('cache-control')).toBe(
        'private, no-store',
      );
      const write = await request(`${server.base}/api/events`, { key, json: { action: 'cancel', externalId: 'none' } });
      expect(write.headers.get('cache-control')).toMatch(/no-store/);
    });

    it('serves repeated reads in each coding the client accepts, the same body, each coding with its own ETag', async () => {
      const path = `${server.base}/api/events?q=${encodeURIComponent('devops conference')}&limit=50`;
      const plain = await fetch(path, { headers: { 'accept-encoding': 'identity' } });
      const body = await plain.text();
      expect(body.length).toBeGreaterThan(1024);
      const expectations: [string, string | null][] = [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['gzip, deflate, br', 'br'],
        ['br;q=0, gzip', 'gzip'],
        ['identity', null],
      ];
      for (const [coding, expected] of expectations) {
        // Twice: the first may render or compress, the second comes from the response cache.
        for (let round = 0; round < 2; round++) {
          const res = await fetch(path, { headers: { 'accept-encoding': coding } });
          expect(res.headers.get('content-encoding'), coding).toBe(expected);
          const tag = plain.headers.get('etag')!;
          expect(res.headers.get('etag'), coding).toBe(expected ? `${tag.slice(0, -1)}-${expected}"` : tag);
          expect(await res.text(), coding).toBe(body); // fetch decodes br and gzip
          expect(res.headers.get('vary'), coding).toMatch(/accept-encoding/i);
        }
      }
    });

    it('never serves a cached body after a write, a cancel or a restore, or once the minute has turned', async () => {
      const paths = ['/api/events?country=ch&q=zebra', '/ch.md?q=zebra', '/api/calendar?country=ch&q=zebra'];
      /** Whether each output lists the event; read three times, so the later answers are the response cache's. */
      const listed = async () => {
        const rounds = [];
        for (let round = 0; round < 3; round++) {
          const texts = await Promise.all(paths.map(async (p) => (await request(`${server.base}${p}`)).text));
          rounds.push(texts.map((t) => t.includes('Zebra Crossing Night')));
        }
        expect(rounds[1]).toEqual(rounds[0]);
        expect(rounds[2]).toEqual(rounds[0]);
        return rounds[0];
      };
      expect(await listed()).toEqual([false, false, false]);
      const zebra = { externalId: 'zebra', title: 'Zebra Crossing Night', startAt: '2025-03-20T18:00:00+01:00' };
      expect((await request(`${server.base}/api/events`, { key, json: { ...zebra, city: 'Basel' } })).status).toBe(201);
      expect(await listed()).toEqual([true, true, true]);
      const change = (action: string) =>
        request(`${server.base}/api/events`, { key, json: { action, externalId: 'zebra' } });
      expect((await change('cancel')).status).toBe(200);
      expect(await listed()).toEqual([false, false, false]);
      expect((await change('restore')).status).toBe(200);
      expect(await listed()).toEqual([true, true, true]);
      // Nothing written, but "now" has moved past the event: the bodies cached a minute ago no longer hold.
      const { ctx } = server.service;
      const realNow = ctx.now;
      ctx.now = () => new Date('2025-03-21T09:00:00Z');
      try {
        expect(await listed()).toEqual([false, false, false]);
      } finally {
        ctx.now = realNow;
      }
      expect(await listed()).toEqual([true, true, true]);
      expect((await change('cancel')).status).toBe(200);
    });

    it('never keeps as current a body ranked before a write that landed while the read was under way', async () => {
      const { ctx } = server.service;
      const path = '/api/events?country=ch&q=okapi';
      const read = async () => (await request(`${server.base}${path}`)).text;
      const okapi = {
        externalId: 'okapi',
        title: 'Okapi Data Night',
        startAt: '2025-03-22T18:00:00+01:00',
        city: 'Bern',
      };
      const created = await request(`${server.base}/api/events`, { key, json: okapi });
      expect(created.status).toBe(201);
      expect(await read()).toContain('Okapi Data Night');
      // A change reaches the index just after the read was ranked, before its body is made and kept (as a write's
      // notification may): the body must not pass for the catalogue after it. The half revision stays below the
      // host's next write, which replaces it.
      const search = ctx.index.search;
      const listed = ctx.index.event(created.body.id)!.event;
      ctx.index.search = (...args) => {
        const result = search.apply(ctx.index, args);
        ctx.index.search = search;
        ctx.index.apply({ ...listed, title: 'Okapi Data Night, moved', revision: listed.revision + 0.5 });
        return result;
      };
      try {
        expect(await read()).not.toContain('Okapi Data Night, moved');
      } finally {
        ctx.index.search = search;
      }
      expect(await read()).toContain('Okapi Data Night, moved');
      expect(await read()).toContain('Okapi Data Night, moved');
      expect(
        (await request(`${server.base}/api/events`, { key, json: { action: 'cancel', externalId: 'okapi' } })).status,
      ).toBe(200);
      expect(await read()).not.toContain('Okapi Data Night');
    });

    it('keeps serving an answer through writes to other countries, and not through one to its own', async () => {
      const { ctx } = server.service;
      // Matches enough not to name other countries (an empty answer naming a place counts theirs: widen.ts).
      const q = encodeURIComponent('AI Zürich');
      const paths = [`/api/events?country=ch&q=${q}`, `/ch.md?q=${q}`, `/api/calendar?country=ch&q=${q}`];
      const read = () => Promise.all(paths.map(async (p) => (await request(`${server.base}${p}`)).text));
      const push = (body: Record<string, unknown>) => request(`${server.base}/api/events`, { key, json: body });
      await read();
      const kept = await read();
      const ranking = countRanking(ctx.index);
      try {
        const version = ctx.index.versionOf('de');
        const elsewhere = {
          externalId: 'berlin',
          title: 'Berlin AI Night',
          startAt: '2025-03-24T18:00:00+01:00',
        };
        expect((await push({ ...elsewhere, city: 'Berlin', topics: ['ai-ml'] })).status).toBe(201);
        expect(ctx.index.versionOf('de')).toBeGreaterThan(version);
        expect(await read()).toEqual(kept);
        expect(ranking.ranked).toBe(0);
        const zurich = { externalId: 'zurich-ai', title: 'Zürich AI Night', startAt: '2025-03-25T18:00:00+01:00' };
        expect((await push({ ...zurich, city: 'Zürich', topics: ['ai-ml'] })).status).toBe(201);
        const after = await read();
        expect(ranking.ranked).toBeGreaterThan(0);
        for (const text of after) expect(text).toContain('Zürich AI Night');
        expect((await push({ action: 'cancel', externalId: 'zurich-ai' })).status).toBe(200);
        for (const text of await read()) expect(text).not.toContain('Zürich AI Night');
      } finally {
        ranking.restore();
      }
      expect((await push({ action: 'cancel', externalId: 'berlin' })).status).toBe(200);
    });

    it('makes a body once when many reads of its URL arrive together after a write', async () => {
      const { ctx } = server.service;
      const path = `${server.base}/api/events?country=ch&q=quokka`;
      const quokka = { externalId: 'quokka', title: 'Quokka Cloud Night', startAt: '2025-03-23T18:00:00+01:00' };
      await request(path);
      await request(path);
      expect((await request(`${server.base}/api/events`, { key, json: { ...quokka, city: 'Bern' } })).status).toBe(201);
      const ranking = countRanking(ctx.index);
      try {
        const bodies = await Promise.all(Array.from({ length: 12 }, async () => (await request(path)).text));
        expect(ranking.ranked).toBe(1);
        expect(new Set(bodies).size).toBe(1);
        expect(bodies[0]).toContain('Quokka Cloud Night');
      } finally {
        ranking.restore();
      }
      expect(
        (await request(`${server.base}/api/events`, { key, json: { action: 'cancel', externalId: 'quokka' } })).status,
      ).toBe(200);
    });

    it('answers 304 to a matching If-None-Match on every read output', async () => {
      for (const path of [
        '/api/events?q=devops',
        '/ch.md',
        '/api/calendar?q=devops',
        '/ch/events/devopsdays-zurich',
        '/',
      ]) {
        const first = await fetch(`${server.base}${path}`);
        const etag = first.headers.get('etag');
        expect(etag, path).toBeTruthy();
        const again = await fetch(`${server.base}${path}`, { headers: { 'if-none-match': etag! } });
        expect(again.status, path).toBe(304);
      }
    });
  });
});
