import { describe, expect, it } from 'vitest';
import { SHIPPED_FEEDS_FILE } from '../src/config.js';
import { feedParts, loadFeeds } from '../src/importers/feeds.js';
import { importerFor } from '../src/importers/registry.js';

describe('the shipped feeds file', () => {
  it('reads the calendars of at least 60 DACH tech groups, each with where it was found and when it was last seen active', async () => {
    const feeds = await loadFeeds(SHIPPED_FEEDS_FILE);
    const calendars = feeds
      .filter((f) => f.enabled !== false && importerFor(f.format)?.calendar)
      .flatMap((f) => feedParts(f, new Date('2026-11-26T10:00:00Z')).map((p) => ({ feed: f, ...p })));
    const local = calendars.filter((c) => c.entry?.country);
    const byCountry = (country: string) => local.filter((c) => c.entry!.country === country).length;
    expect(local.length).toBeGreaterThanOrEqual(60);
    expect(byCountry('ch')).toBeGreaterThanOrEqual(15);
    expect(byCountry('at')).toBeGreaterThanOrEqual(10);
    expect(byCountry('de')).toBeGreaterThanOrEqual(10);
    for (const c of calendars) {
      expect(c.entry, c.url).toBeDefined();
      expect(c.entry!.found, c.key).toMatch(/^https:\/\//);
      expect(c.entry!.seen! >= '2025-01-01', c.key).toBe(true);
      expect(c.entry!.topics?.length, c.key).toBeGreaterThan(0);
    }
    // Calendars without a country span the world, and are read as such.
    for (const c of calendars.filter((x) => !x.entry?.country)) expect(c.feed.worldwide, c.key).toBe(true);
    // Every URL once: no calendar listed twice.
    expect(new Set(calendars.map((c) => c.url.toLowerCase())).size).toBe(calendars.length);
  });
});
