import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from './helpers/browser.js';
import { calendarHost, type Group, makeGroups } from './helpers/calendar-host.js';
import { adminSync, allEvents, request } from './helpers/http.js';
import { runCli } from './helpers/process.js';
import { freePort, startTestServer, type TestServer } from './helpers/server.js';

const TOKEN = 'add-calendar-admin-token';
/** The CLI runs as its own process, asking the service over its control socket: seconds each. */
const SPAWNING = { timeout: 240_000 };

const listen = (server: { listen: (port: number, host: string, done: () => void) => unknown }, host: string) =>
  freePort().then((port) => new Promise<number>((resolve) => server.listen(port, host, () => resolve(port))));

/** The proposal's status page until its calendar has been read (it reloads itself; the test reloads it sooner). */
async function untilRead(page: Page): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (!(await page.content()).includes('http-equiv="refresh"')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
    await page.reload();
  }
  throw new Error(`still reading: ${page.url()}`);
}

/** Proposes a calendar on /add, as a visitor with no script would: the address, the city, the group's name. */
async function propose(page: Page, base: string, url: string, city = '', name = ''): Promise<void> {
  await page.goto(`${base}/add?hl=en`);
  await page.fill('#calendar-url', url);
  if (city) await page.fill('#calendar-city', city);
  if (name) await page.fill('#calendar-name', name);
  await page.click('text=Propose this calendar');
}

/**
 * The story in Chromium: a visitor proposes a local Meetup-shaped calendar on /add and sees its preview; the
 * operator accepts it with the CLI (over the running service's control socket); the next sync lists its events and
 * /sources names it. The same address again is the same proposal; a private address is refused with no connection.
 */
describe.skipIf(browserMissing)('a community adds its calendar', SPAWNING, () => {
  let server: TestServer;
  let browser: Browser;
  let hostBase: string;
  let group: Group;
  const host = calendarHost(makeGroups().slice(0, 2));
  // Stands where a private address would lead: it counts every connection made to it.
  let trapConnections = 0;
  const trap: TcpServer = createTcpServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  let trapPort = 0;

  beforeAll(async () => {
    group = makeGroups()[0]!;
    hostBase = `http://127.0.0.1:${await listen(host.server, '127.0.0.1')}`;
    trapPort = await listen(trap, '127.0.0.2');
    server = await startTestServer('pglite', {
      now: '2026-11-20T09:00:00Z',
      // Loopback's 127.0.0.1 only, where the stand-in calendar host is: 127.0.0.2 stays as private as 10/8.
      env: { ADMIN_TOKEN: TOKEN, CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32' },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    host.server.close();
    trap.close();
  });

  it('proposes, previews, is accepted from the command line, syncs, and is named in /sources', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const address = `${hostBase}/meetup/${group.id}/events/ical/`;
    await propose(page, server.base, address, '', group.name);
    expect(page.url()).toMatch(/\/add\/prp_[0-9a-f]{32}\?hl=en$/);
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    await untilRead(page);

    // The preview: the state, the upcoming events it would list and where each place comes from.
    const text = (await page.locator('main').textContent())!;
    expect(text).toContain('Waiting for the operator');
    expect(text).toContain('The calendar reads well.');
    expect(text).toContain('It is not synced yet.');
    const [, next, january] = group.events;
    expect(text).toContain(next!.title);
    expect(text).toContain(january!.title);
    expect(text).not.toContain(group.events[0]!.title); // over already
    expect(text).toContain('place given by the event');
    expect(text).toContain(next!.venue!);
    // The status page is nobody's to keep: not the browser's, not a shared cache's.
    const status = await request(`${server.base}/add/${id}?hl=en`);
    expect(status.headers.get('cache-control')).toBe('no-store');

    const accepted = await runCli(['proposals', 'accept', id], server.storageEnv);
    expect(accepted.status, accepted.stderr).toBe(0);
    await page.reload();
    expect(await page.locator('main').textContent()).toContain('Accepted on');

    const { run } = await adminSync(server.base, TOKEN);
    expect(run.body.state, run.text).toBe('done');
    const events = await allEvents<{ title: string; source: string }>(`${server.base}/api/events?country=ch&limit=100`);
    const listed = events.filter((e) => e.source === 'community').map((e) => e.title);
    expect(listed).toEqual(expect.arrayContaining([next!.title, january!.title]));

    await page.goto(`${server.base}/sources?hl=en`);
    const sources = (await page.locator('main').textContent())!;
    expect(sources).toContain(group.name);
    expect(sources).toContain('proposed by its community, accepted on');

    // The same address again: the same proposal, the same status page.
    await propose(page, server.base, address);
    expect(new URL(page.url()).pathname).toBe(`/add/${id}`);
    await context.close();

    // The operator removes it again on /admin, where it is listed as accepted: its upcoming events go.
    const operator = await browser.newContext({
      javaScriptEnabled: false,
      httpCredentials: { username: 'operator', password: TOKEN },
    });
    const admin = await operator.newPage();
    await admin.goto(`${server.base}/admin?hl=en`);
    const row = admin.locator(`tr[id="${id}"]`);
    await expect(row.textContent()).resolves.toContain(group.name);
    await row.locator('input[name="reason"]').fill('The group moved to another platform');
    await row.locator('button').click();
    expect(new URL(admin.url()).pathname).toBe('/admin');
    await expect(admin.locator(`tr[id="${id}"]`).count()).resolves.toBe(0);
    await expect(admin.locator('table.admin').last().textContent()).resolves.toMatch(/admin page\s*removed/);
    await admin.goto(`${server.base}/add/${id}?hl=en`);
    const removed = (await admin.locator('main').textContent())!;
    expect(removed).toContain('Removed on');
    expect(removed).toContain('The group moved to another platform');
    const after = await allEvents<{ source: string }>(`${server.base}/api/events?country=ch&limit=100`);
    expect(after.filter((e) => e.source === 'community')).toEqual([]);
    await operator.close();
  });

  it('refuses a private address before any connection, saying why in the page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const before = host.requests.length;
    for (const address of ['http://10.1.2.3/cal.ics', `http://127.0.0.2:${trapPort}/meetup/${group.id}/events/ical/`]) {
      const answer = page.waitForResponse((res) => res.request().method() === 'POST');
      await propose(page, server.base, address);
      expect((await answer).status(), address).toBe(422);
      expect(new URL(page.url()).pathname).toBe('/add');
      await expect(page.locator('#calendar-url-error').textContent()).resolves.toContain('private or local network');
      await expect(page.locator('#calendar-url').getAttribute('aria-invalid')).resolves.toBe('true');
      // The form comes back with what was sent, to be mended.
      await expect(page.locator('#calendar-url').inputValue()).resolves.toBe(address);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(trapConnections).toBe(0);
    expect(host.requests.length).toBe(before);
    await context.close();
  });
});
