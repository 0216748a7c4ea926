import { describe, expect, it } from 'vitest';
import { SHIPPED_FEEDS_FILE } from '../src/config.js';
import { feedParts, loadFeeds } from '../src/importers/feeds.js';
import { importerFor } from '../src/importers/registry.js';

const NOW = new Date('2026-11-26T10:00:00Z');

async function shippedCalendars() {
  const feeds = await loadFeeds(SHIPPED_FEEDS_FILE);
  return feeds
    .filter((f) => f.enabled !== false && importerFor(f.format)?.calendar)
    .flatMap((f) => feedParts(f, NOW).map((p) => ({ feed: f, ...p })));
}

describe('the shipped feeds file', () => {
  it('reads the calendars of at least 60 DACH tech groups, each with where it was found and when it was last seen active', async () => {
    const calendars = await shippedCalendars();
    const local = calendars.filter((c) => c.entry?.country);
    const byCountry = (country: string) => local.filter((c) => c.entry!.country === country).length;
    expect(local.length).toBeGreaterThanOrEqual(60);
    expect(byCountry('ch')).toBeGreaterThanOrEqual(15);
    expect(byCountry('at')).toBeGreaterThanOrEqual(10);
    expect(byCountry('de')).toBeGreaterThanOrEqual(10);
    for (const c of calendars) {
      expect(c.entry, c.url).toBeDefined();
      expect(c.entry!.found, c.key).toMatch(/^https:\/\//);
      expect(c.entry!.topics?.length, c.key).toBeGreaterThan(0);
    }
    // Calendars without a country span the world, and are read as such.
    for (const c of calendars.filter((x) => !x.entry?.country)) expect(c.feed.worldwide, c.key).toBe(true);
    // Every URL once: no calendar listed twice.
    expect(new Set(calendars.map((c) => c.url.toLowerCase())).size).toBe(calendars.length);
  });

  it('gives every local group its urlname, city, country, topics, and a dated event of 2025 or 2026 where it was found', async () => {
    const local = (await shippedCalendars()).filter((c) => c.entry?.country);
    const today = new Date().toISOString().slice(0, 10);
    for (const c of local) {
      const e = c.entry!;
      expect(e.id, c.url).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(c.url.toLowerCase(), e.id).toContain(`/${e.id.toLowerCase()}/`);
      expect(e.city, e.id).toBeTruthy();
      expect(['ch', 'de', 'at'], e.id).toContain(e.country);
      expect(e.topics?.length, e.id).toBeGreaterThan(0);
      expect(e.found, e.id).toMatch(/^https:\/\//);
      expect(e.seen, e.id).toMatch(/^202[56]-\d\d-\d\d$/);
      expect(e.seen! <= today, `${e.id} was seen ${e.seen}, after today`).toBe(true);
    }
  });

  it('does not take a directory for evidence: a page that several groups were found on gives them their own events’ dates', async () => {
    // A directory lists groups, not events: everything on it gets the one date it was read on.
    // A page of dated events (a calendar, This Week in Rust) gives each group the date of its own event,
    // so most of its groups have dates of their own and no date is shared by more than a few of them.
    const local = (await shippedCalendars()).filter((c) => c.entry?.country);
    const byPage = new Map<string, { id: string; seen: string }[]>();
    for (const c of local) {
      const page = c.entry!.found!.replace(/#.*$/, '');
      byPage.set(page, [...(byPage.get(page) ?? []), { id: c.entry!.id, seen: c.entry!.seen! }]);
    }
    for (const [page, groups] of byPage) {
      if (groups.length < 2) continue;
      const dates = new Map<string, string[]>();
      for (const g of groups) dates.set(g.seen, [...(dates.get(g.seen) ?? []), g.id]);
      const detail = `${page}: ${[...dates].map(([d, ids]) => `${d} ${ids.join(', ')}`).join('; ')}`;
      expect(dates.size, detail).toBeGreaterThanOrEqual(Math.ceil(groups.length / 2));
      for (const ids of dates.values()) expect(ids.length, detail).toBeLessThanOrEqual(3);
    }
  });
});
