import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from './helpers/browser.js';
import { CITIES, calendarHost, feedGroups, makeGroups } from './helpers/calendar-host.js';
import { parseMarkdownTable, parsePage } from './helpers/documents.js';
import { adminSync, request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { ROOT } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** The README's first prompt, on the day the issue was found: offline, a fresh clone, the shipped data. */
const PROMPT = 'AI meetups in Zürich for founders next week';
const NOW = '2026-12-01T10:00:00Z';

interface CoverageJson {
  code: string;
  message: string;
  countries: string[];
  sources: { source: string; state: string; calendars?: number; names?: string[]; snapshotOf?: string | null }[];
  sync: string;
  upcoming: Record<string, number>;
  months: Record<string, string[]>;
  sourcesPage: string;
}
interface ListJson {
  total: number;
  coverage?: CoverageJson;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  return {
    data: result.structuredContent as { coverage?: CoverageJson; total: number },
    text: (result.content as { text: string }[]).map((c) => c.text).join('\n'),
  };
};

/** Markdown paragraphs before the table, as text. */
function notesOf(markdown: string): string[] {
  type Node = { type: string; value?: string; url?: string; children?: Node[] };
  const text = (n: Node): string => n.value ?? n.url ?? (n.children ?? []).map(text).join('');
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as Node;
  const top = tree.children ?? [];
  return top
    .slice(
      0,
      top.findIndex((n) => n.type === 'table'),
    )
    .filter((n) => n.type === 'paragraph')
    .map(text);
}

type PageElement = ReturnType<ReturnType<typeof parsePage>['byTag']>[number];
/** The links inside an element. */
function linksIn(element: PageElement): PageElement[] {
  const found: PageElement[] = [];
  const walk = (node: PageElement) => {
    for (const child of node.childNodes) {
      if (!('tagName' in child)) continue;
      if (child.tagName === 'a') found.push(child);
      walk(child);
    }
  };
  walk(element);
  return found;
}

describe('offline on a fresh clone: the shipped snapshots and feeds file, nothing synced', () => {
  let svc: TestServer;
  let client: Client;
  const shipped = JSON.parse(readFileSync(join(ROOT, 'feeds.json'), 'utf8')) as {
    source: string;
    each?: { group?: { name: string; country?: string }[] };
  }[];
  const swissGroups = shipped.find((f) => f.source === 'meetup')!.each!.group!.filter((g) => g.country === 'ch');

  beforeAll(async () => {
    svc = await startTestServer('pglite', { now: NOW, env: { SEED: '1', FEEDS_FILE: join(ROOT, 'feeds.json') } });
    client = await connectMcp(svc.base);
  });
  afterAll(async () => {
    await client?.close();
    await svc?.close();
  });

  const query = `q=${encodeURIComponent(PROMPT)}`;

  it('JSON names the unread calendars of the countries searched, and what each country holds', async () => {
    const { status, body } = await request<ListJson>(`${svc.base}/api/events?${query}`);
    expect(status).toBe(200);
    expect(body.total).toBe(0);
    const coverage = body.coverage!;
    expect(coverage).toMatchObject({ code: 'sources-not-read', countries: ['ch'], sync: 'off' });
    const meetup = coverage.sources.find((s) => s.source === 'meetup')!;
    expect(meetup).toMatchObject({ state: 'not-read', calendars: swissGroups.length, countries: ['ch'] });
    expect(meetup.names).toEqual(swissGroups.map((g) => g.name));
    expect(coverage.sources.find((s) => s.source === 'community-calendars')).toMatchObject({
      state: 'not-read',
      calendars: 3,
      countries: [],
    });
    // Both snapshots are recent: their age is no reason (the footer shows it); an old one is, below.
    expect(coverage.sources.find((s) => s.source === 'confs-tech')).toBeUndefined();
    expect(coverage.sources.find((s) => s.source === 'devopsdays')).toBeUndefined();

    // The counts are the catalogue's: each country's plain listing holds as many.
    for (const country of ['ch', 'de', 'at']) {
      const listing = await request<ListJson & { events: { start: string }[] }>(
        `${svc.base}/api/events?country=${country}&limit=100`,
      );
      expect(coverage.upcoming[country], country).toBe(listing.body.total);
      const upcoming = listing.body.events.filter((e) => e.start >= NOW);
      const months = [...new Set(upcoming.map((e) => e.start.slice(0, 7)))].slice(0, 3);
      expect(coverage.months[country], country).toEqual(months);
    }
    expect(coverage.upcoming.at).toBe(0);
    expect(coverage.upcoming.de).toBeGreaterThan(0);

    expect(coverage.message).toContain(`Not read yet: ${swissGroups.length} “meetup” calendars for Switzerland`);
    expect(coverage.message).toContain('3 “community-calendars” calendars');
    expect(coverage.message).toContain('feed sync is off in this service');
    expect(coverage.message).toContain(`${coverage.upcoming.de} in Germany (`);
    expect(coverage.message).toContain('none in Austria');
    expect(coverage.message).toContain(`${svc.base}/sources`);
    expect(coverage.message).not.toMatch(/ask(ing)? for less/);

    const openapi = await request<any>(`${svc.base}/api/openapi.json`);
    const list = JSON.stringify(openapi.body);
    expect(list).toContain('sources-not-read');
  });

  it('the API of a country with nothing and no calendars read says so too, and /api/sources agrees', async () => {
    const { body } = await request<ListJson>(`${svc.base}/api/events?country=at`);
    expect(body.total).toBe(0);
    expect(body.coverage?.message).toContain('“meetup” calendars for Austria');
    const sources = await request<{ sources: { source: string; calendars?: { country: string; state: string }[] }[] }>(
      `${svc.base}/api/sources`,
    );
    const austrian = sources.body.sources
      .find((s) => s.source === 'meetup')!
      .calendars!.filter((c) => c.country === 'at');
    expect(austrian.every((c) => c.state === 'not synced yet')).toBe(true);
    expect(body.coverage?.sources.find((s) => s.source === 'meetup')?.calendars).toBe(austrian.length);
  });

  it('markdown carries the note above its table', async () => {
    for (const path of [`/api/md?${query}`, `/ch.md?${query}`]) {
      const res = await fetch(`${svc.base}${path}`);
      expect(res.status).toBe(200);
      const markdown = await res.text();
      expect(parseMarkdownTable(markdown, svc.base)).toHaveLength(2);
      const note = notesOf(markdown).find((p) => p.startsWith('Note:'));
      expect(note, path).toContain(`Not read yet: ${swissGroups.length} “meetup” calendars for Switzerland`);
      expect(note).toContain('none in Austria');
      expect(note).toContain(`${svc.base}/sources`);
    }
  });

  it('the search page shows a banner in its language naming the calendars, the countries, months and /sources', async () => {
    const headings = {
      en: 'Why this list may be short',
      de: 'Warum diese Liste kurz sein kann',
      fr: 'Pourquoi cette liste peut être courte',
      it: 'Perché questo elenco può essere breve',
    };
    for (const [lang, heading] of Object.entries(headings)) {
      const res = await fetch(`${svc.base}/ch?${query}&hl=${lang}`);
      expect(res.status).toBe(200);
      const page = parsePage(await res.text());
      const banner = page.byTag('section').find((s) => page.attr(s, 'class') === 'coverage');
      expect(banner, lang).toBeDefined();
      const text = page.text(banner!);
      expect(text).toContain(heading);
      expect(text).toContain(swissGroups[0]!.name);
      expect(text).toContain(String(swissGroups.length));
      const hrefs = linksIn(banner!).map((a) => page.attr(a, 'href'));
      expect(hrefs).toContain(`/sources?hl=${lang}`);
      expect(hrefs).toContain(`/de?hl=${lang}`);
      expect(hrefs.some((h) => h?.startsWith('/de?from='))).toBe(true);
      // The prompt is not what makes this answer thin: no advice to ask for less.
      const all = page.text(page.byTag('main')[0] ?? page.byTag('body')[0]!);
      expect(all).not.toMatch(/asking for less|Suchen Sie nach weniger|demandez moins|chiedi di meno/);
    }
  });

  it('names a shipped snapshot months old while the country holds few events', async () => {
    const later = await startTestServer('pglite', {
      now: '2027-03-15T10:00:00Z',
      env: { SEED: '1', FEEDS_FILE: join(ROOT, 'feeds.json') },
    });
    try {
      const { body } = await request<ListJson>(`${later.base}/api/events?${query}`);
      const snapshot = body.coverage?.sources.find((s) => s.source === 'confs-tech');
      expect(snapshot).toMatchObject({ state: 'snapshot', snapshotOf: expect.stringMatching(/^2026-/) });
      expect(body.coverage?.message).toMatch(/Only the shipped snapshots? of confs-tech \(data of 2026-/);
    } finally {
      await later.close();
    }
  });

  it('above a list that has events the banner is folded to its heading, the events first in view', async () => {
    const res = await fetch(`${svc.base}/de?q=conference&hl=en`);
    const page = parsePage(await res.text());
    expect(page.byTag('ol').some((o) => page.attr(o, 'class') === 'results')).toBe(true);
    const folded = page.byTag('details').find((d) => page.attr(d, 'class') === 'coverage');
    expect(folded).toBeDefined();
    expect(page.attr(folded!, 'open')).toBeUndefined();
    expect(page.text(folded!)).toContain('Why this list may be short');
    expect(page.text(folded!)).toMatch(/\d+ calendars of/);
  });

  it.skipIf(browserMissing)('in Chromium the banner is styled, comes before the answer, and is axe-clean', async () => {
    const browser = await launchChromium();
    try {
      // axe is injected as a script: the pages' CSP allows none, so this context bypasses it.
      const context = await browser.newContext({ bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${svc.base}/ch?${query}&hl=en`);
      const banner = page.locator('section.coverage');
      await expect(banner.isVisible()).resolves.toBe(true);
      const style = await banner.evaluate((el) => {
        const css = (
          globalThis as unknown as { getComputedStyle(e: unknown): { borderLeftWidth: string } }
        ).getComputedStyle(el);
        return css.borderLeftWidth;
      });
      expect(Number.parseFloat(style)).toBeGreaterThan(0);
      const bannerTop = (await banner.boundingBox())!.y;
      expect(bannerTop).toBeLessThan((await page.locator('section.empty').boundingBox())!.y);
      await page.addScriptTag({ content: createRequire(import.meta.url)('axe-core').source });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
        const doc = (globalThis as { document?: unknown }).document;
        const results = (await axe.run(doc, { resultTypes: ['violations'] })) as {
          violations: { id: string; impact: string | null }[];
        };
        return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      });
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });

  it('MCP search_events, find_events and best_next_event say it for the assistant, with `coverage` in structured content', async () => {
    for (const [tool, args] of [
      ['search_events', { q: PROMPT }],
      ['find_events', { country: 'at' }],
      ['best_next_event', { q: PROMPT }],
    ] as const) {
      const { data, text } = await callTool(client, tool, args);
      expect(data.total, tool).toBe(0);
      expect(data.coverage?.code, tool).toBe('sources-not-read');
      expect(text).toContain(data.coverage!.message);
      expect(text).toMatch(/“meetup” calendars for (Switzerland|Austria)/);
      expect(text).not.toContain('ask for less');
    }
  });
});

describe('a feeds file of local calendars: the notice follows the sources’ state', () => {
  const ADMIN = 'coverage-admin-token';
  const all = makeGroups();
  const host = calendarHost(all);
  // One group's calendar is a feed of its own, of one country's events.
  const [single, groups] = [all.at(-1)!, all.slice(0, -1)];
  let svc: TestServer;
  let client: Client;

  beforeAll(async () => {
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
    const feedsFile = join(tmpdir(), `tev-coverage-${process.pid}.json`);
    writeFileSync(
      feedsFile,
      JSON.stringify([
        {
          source: 'meetup',
          format: 'ical',
          url: `${base}/meetup/{group}/events/ical/`,
          each: {
            group: feedGroups(groups),
          },
        },
        {
          source: 'single',
          format: 'ical',
          url: `${base}/meetup/${single.id}/events/ical/`,
          country: CITIES[single.city].country,
        },
      ]),
    );
    // Every calendar fails at first, as a host that is down would.
    for (const g of all) host.setMode(g.id, '500');
    svc = await startTestServer('pglite', {
      now: '2026-11-26T10:00:00Z',
      env: { FEEDS_FILE: feedsFile, ADMIN_TOKEN: ADMIN, CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32' },
    });
    client = await connectMcp(svc.base);
  });
  afterAll(async () => {
    await client?.close();
    await svc?.close();
    await new Promise((resolve) => host.server.close(resolve));
  });

  const sync = async () => {
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.state).toBe('done');
  };
  const coverage = async () => (await request<ListJson>(`${svc.base}/api/events?q=AI%20Z%C3%BCrich`)).body.coverage;

  it('not read, then failing once a sync fails (a kept answer is not served past it), then nothing once all is read', async () => {
    // Asked twice: the response cache keeps the body, stamped with the sources' state.
    expect((await coverage())?.code).toBe('sources-not-read');
    expect((await coverage())?.code).toBe('sources-not-read');

    // A sync that fails changes no event, only the sources' state: the kept answer must not be served.
    await sync();
    const failing = await coverage();
    expect(failing?.code).toBe('sources-failing');
    const meetup = failing!.sources.find((s) => s.source === 'meetup')!;
    const swiss = groups.filter((g) => CITIES[g.city].country === 'ch');
    expect(meetup).toMatchObject({ state: 'failing', calendars: swiss.length, lastSuccess: null });
    expect(failing!.message).toMatch(/Failing: \d+ “meetup” calendars for Switzerland \(never read\)/);
    expect(failing!.message).toContain('HTTP 500');
    const page = await (await fetch(`${svc.base}/ch?q=AI%20Z%C3%BCrich&hl=en`)).text();
    expect(page).toContain('failing, never read');

    // A feed of one country counts for that country only.
    expect(failing!.sources.some((s) => s.source === 'single')).toBe(false);
    const there = (await request<ListJson>(`${svc.base}/api/events?country=${CITIES[single.city].country}`)).body;
    expect(there.coverage?.sources.find((s) => s.source === 'single')).toMatchObject({
      state: 'failing',
      lastSuccess: null,
      lastError: expect.stringMatching(/500/),
    });
    expect(there.coverage?.message).toMatch(/single \(never read\): [^;]*500/);

    for (const g of all) host.setMode(g.id, 'ok');
    await sync();
    expect(await coverage()).toBeUndefined();
    const res = await fetch(`${svc.base}/ch?q=AI%20Z%C3%BCrich&hl=en`);
    expect(await res.text()).not.toContain('class="coverage"');
    const markdown = await (await fetch(`${svc.base}/api/md?q=AI%20Z%C3%BCrich`)).text();
    expect(markdown).not.toContain('Note:');
    for (const country of ['ch', 'de', 'at']) {
      const { data, text } = await callTool(client, 'find_events', { country });
      expect(data.total, country).toBeGreaterThan(0);
      expect(data.coverage, country).toBeUndefined();
      expect(text).not.toContain('thin here');
    }
    const { data } = await callTool(client, 'search_events', { q: 'Rust meetups in Wien' });
    expect(data.coverage).toBeUndefined();
  });
});
