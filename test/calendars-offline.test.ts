import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';

describe('calendars not read yet (a machine without internet)', () => {
  let svc: TestServer;
  let closedPort: number;

  beforeAll(async () => {
    // A port nobody listens on: every read fails at once, as it does offline.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const feedsFile = join(tmpdir(), `tev-meetup-offline-${process.pid}.json`);
    writeFileSync(
      feedsFile,
      JSON.stringify([
        {
          source: 'meetup',
          format: 'ical',
          url: `http://127.0.0.1:${closedPort}/{group}/events/ical/`,
          each: {
            group: [
              { id: 'zurich-ai', name: 'Zurich AI', city: 'Zürich', country: 'ch' },
              { id: 'vienna-rust', name: 'Rust Vienna', city: 'Wien', country: 'at' },
            ],
          },
        },
      ]),
    );
    // The schedule on, as `npm start` runs it: the first sync starts at once and fails.
    svc = await startTestServer('pglite', {
      now: NOW,
      env: { FEEDS_FILE: feedsFile, SYNC_INTERVAL_MINUTES: '360', CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32' },
    });
  });
  afterAll(() => svc?.close());

  const meetupSource = async () => {
    const { body } = await request<{
      sources: {
        source: string;
        lastAttempt: string | null;
        lastSuccess: string | null;
        lastError: string | null;
        nextTry: string | null;
        calendars: { state: string; lastSuccess: string | null }[];
      }[];
    }>(`${svc.base}/api/sources`);
    return body.sources.find((s) => s.source === 'meetup')!;
  };

  it('says in /api/sources, /sources and the pages that the calendars are not read yet, and when the next try is', async () => {
    let meetup = await meetupSource();
    for (let i = 0; i < 200 && !meetup.lastAttempt; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      meetup = await meetupSource();
    }
    expect(meetup.lastAttempt, 'the first sync ran').not.toBeNull();
    expect(meetup).toMatchObject({ lastSuccess: null, lastError: expect.stringMatching(/calendars failed/) });
    // A failing feed is retried after a minute, then backs off.
    expect(Date.parse(meetup.nextTry!) - Date.parse(meetup.lastAttempt!)).toBe(60_000);
    expect(meetup.calendars.every((c) => c.state === 'failing' && c.lastSuccess === null)).toBe(true);

    const sourcesPage = await (await fetch(`${svc.base}/sources?hl=en`)).text();
    expect(sourcesPage).toContain('None of these calendars has been read yet');
    expect(sourcesPage).toMatch(/not read yet: .*next try/s);
    const germanPage = await (await fetch(`${svc.base}/sources?hl=de`)).text();
    expect(germanPage).toContain('Noch keiner dieser Kalender wurde gelesen');

    const countryPage = await (await fetch(`${svc.base}/ch?hl=en`)).text();
    expect(countryPage).toMatch(/meetup<\/code><\/a> not read yet, next try/);
  });
});
