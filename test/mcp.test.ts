import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { ROOT } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2025-03-01T09:00:00Z';

type Structured = Record<string, any>;
const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  return {
    result,
    data: result.structuredContent as Structured,
    text: (result.content as { text: string }[])[0]?.text ?? '',
  };
};

describe.each(ENGINES)('MCP server on %s', (engine) => {
  let server: TestServer;
  let hostKey: string;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW, env: { SEED: '1' } });
    hostKey = await server.createKey('Zürich AI Society', 'ch');
    const push = (body: Record<string, unknown>) => request(`${server.base}/api/events`, { key: hostKey, json: body });
    await push({
      externalId: 'ki',
      title: 'KI Meetup Zürich',
      startAt: '2025-03-05T18:30:00+01:00',
      city: 'Zürich',
      topics: ['ai-ml'],
      price: 'free',
      capacity: 3,
    });
    await push({
      externalId: 'inv',
      title: 'CTO Dinner',
      startAt: '2025-03-07T19:00:00+01:00',
      city: 'Zürich',
      regMode: 'invite',
      seniority: ['executive'],
    });
    await push({
      externalId: 'wl',
      title: 'Sold-out Workshop',
      startAt: '2025-03-08T09:00:00+01:00',
      city: 'Bern',
      regMode: 'waitlist',
      capacity: 10,
    });
    client = await connectMcp(server.base);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('negotiates protocol 2025-06-18 and lists six described tools with schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('tech-events');
    // Only what it can do: tools, whose list never changes (a stateless server has no stream to say so on).
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'best_next_event',
      'find_events',
      'get_event',
      'rsvp',
      'search_events',
      'subscribe_calendar',
    ]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name !== 'rsvp');
    }
    const raw = await fetch(`${server.base}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    });
    expect(((await raw.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-06-18');
  });

  it('search_events ranks with reasons, like /api/events', async () => {
    const { data, text, result } = await call(client, 'search_events', { q: 'AI meetups in Zürich next week' });
    expect(result.isError).toBeFalsy();
    expect(data.events[0].title).toBe('KI Meetup Zürich');
    expect(data.events[0].matchReasons).toEqual(expect.arrayContaining(['Topic: AI & ML', 'In Zürich']));
    expect(data.understood).toContain('next week');
    expect(text).toContain('KI Meetup Zürich');
    const http = await request(`${server.base}/api/events?q=${encodeURIComponent('AI meetups in Zürich next week')}`);
    expect(data.events).toEqual(http.body.events);
    expect(data.total).toBe(http.body.total);
  });

  it('find_events filters structurally and chronologically, with a date range', async () => {
    const { data } = await call(client, 'find_events', {
      country: 'de',
      city: 'München',
      from: '2025-03-01',
      to: '2025-03-31',
    });
    expect(data.events.map((e: { title: string }) => e.title)).toEqual([
      'JavaScript & Angular Days',
      'Software Architecture Summit',
    ]);
    const bad = await call(client, 'find_events', { country: 'de', city: 'Atlantis' });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toMatch(/city/);
  });

  it('best_next_event picks one winner with reasons and two runners-up', async () => {
    const { data, text } = await call(client, 'best_next_event', { wishes: 'devops conference', country: 'ch' });
    expect(data.best.title).toBe('Devopsdays Zurich');
    expect(data.best.matchReasons.length).toBeGreaterThan(0);
    expect(data.runnersUp.length).toBeLessThanOrEqual(2);
    expect(text).toMatch(/Best: Devopsdays Zurich/);
    const none = await call(client, 'best_next_event', { wishes: 'xyzzyplugh' });
    expect(none.data.best).toBeNull();
  });

  it('best_next_event prefers what is near where the person is, without narrowing to it', async () => {
    const q = 'I live in Geneva and want to go to a DevOps conference';
    const { data } = await call(client, 'best_next_event', { q, country: 'ch' });
    expect(data.understood).toMatch(/nearest to your base in Genève/);
    expect(data.best.title).toBe('Devopsdays Geneva');
    expect(data.best.matchReasons).toContain('Near your base in Genève');
    expect(data.runnersUp.map((e: { title: string }) => e.title)).toContain('Devopsdays Zurich');
  });

  it('get_event by id or page URL; unknown id is a helpful tool error', async () => {
    const byId = await call(client, 'get_event', { id: 'ki-meetup-zurich', country: 'ch' });
    expect(byId.data.event.title).toBe('KI Meetup Zürich');
    expect(byId.data.calendar).toBe(`${server.base}/ch/events/ki-meetup-zurich.ics`);
    const byUrl = await call(client, 'get_event', { url: `${server.base}/ch/events/ki-meetup-zurich` });
    expect(byUrl.data.event.id).toBe('ki-meetup-zurich');
    const missing = await call(client, 'get_event', { id: 'nope', country: 'ch' });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toMatch(/No event “nope”.*search_events/);
  });

  it('subscribe_calendar gives https, webcal, Atom and markdown URLs for the same query', async () => {
    const { data } = await call(client, 'subscribe_calendar', { q: 'AI', city: 'Zürich' });
    expect(data.https).toBe(`${server.base}/api/calendar?country=ch&q=AI&city=Z%C3%BCrich`);
    expect(data.webcal).toBe(data.https.replace('http:', 'webcal:'));
    expect(data.feed).toBe(`${server.base}/api/feed?country=ch&q=AI&city=Z%C3%BCrich`);
    expect(data.markdown).toBe(`${server.base}/api/md?country=ch&q=AI&city=Z%C3%BCrich`);
    expect((await request(data.https)).status).toBe(200);
    const feed = await request(data.feed);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
  });

  it('answers an unknown tool with a JSON-RPC error, not a tool result', async () => {
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('rsvp without a key or with a bad key is a tool error saying how to send one', async () => {
    const anonymous = await call(client, 'rsvp', { id: 'ki-meetup-zurich' });
    expect(anonymous.result.isError).toBe(true);
    expect(anonymous.text).toMatch(/Authorization: Bearer/);
    const bad = await connectMcp(server.base, 'tev_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const withBad = await call(bad, 'rsvp', { id: 'ki-meetup-zurich' });
    expect(withBad.text).toMatch(/unknown or revoked/);
    await bad.close();
  });

  it('rsvp honours capacity under concurrency, waitlists in order, promotes on withdrawal, and is idempotent', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, (_, i) => server.createKey(`Guest ${i}`, 'ch')));
    const clients = await Promise.all(keys.map((k) => connectMcp(server.base, k)));
    const results = await Promise.all(
      clients.map((c) => call(c, 'rsvp', { id: 'ki-meetup-zurich', action: 'register' })),
    );
    const statuses = results.map((r) => r.data.status);
    expect(statuses.filter((s) => s === 'registered')).toHaveLength(3);
    expect(statuses.filter((s) => s === 'waitlisted')).toHaveLength(5);
    expect(
      results
        .filter((r) => r.data.status === 'waitlisted')
        .map((r) => r.data.waitlistPlace)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);

    const again = await call(clients[0]!, 'rsvp', { id: 'ki-meetup-zurich' });
    expect(again.data.changed).toBe(false);
    expect(again.data.status).toBe(results[0]!.data.status);

    const firstWaiting = results.findIndex((r) => r.data.waitlistPlace === 1);
    const registeredIndex = results.findIndex((r) => r.data.status === 'registered');
    const withdrawn = await call(clients[registeredIndex]!, 'rsvp', { id: 'ki-meetup-zurich', action: 'withdraw' });
    expect(withdrawn.data).toMatchObject({
      status: 'withdrawn',
      changed: true,
      counts: { registered: 3, waitlisted: 4 },
    });
    const promoted = await call(clients[firstWaiting]!, 'rsvp', { id: 'ki-meetup-zurich' });
    expect(promoted.data.status).toBe('registered');

    // The host sees the counts in its own list.
    const mine = await request(`${server.base}/api/events?mine=1`, { key: hostKey });
    expect(mine.body.events.find((e: { id: string }) => e.id === 'ki-meetup-zurich').registrations).toEqual({
      registered: 3,
      waitlisted: 4,
      requested: 0,
    });
    await Promise.all(clients.map((c) => c.close()));
  });

  it('rsvp: invite → requested, waitlist → waitlisted; a cancelled event refuses new RSVPs, keeps old ones, accepts after restore', async () => {
    const guest = await connectMcp(server.base, await server.createKey('Invitee', 'ch'));
    expect((await call(guest, 'rsvp', { id: 'cto-dinner' })).data.status).toBe('requested');
    expect((await call(guest, 'rsvp', { id: 'sold-out-workshop' })).data.status).toBe('waitlisted');

    await request(`${server.base}/api/events?externalId=wl`, { key: hostKey, method: 'DELETE' });
    const late = await connectMcp(server.base, await server.createKey('Latecomer', 'ch'));
    const refused = await call(late, 'rsvp', { id: 'sold-out-workshop' });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toMatch(/cancelled/);
    // Someone already registered is told the event is cancelled too, and that their place is kept.
    const again = await call(guest, 'rsvp', { id: 'sold-out-workshop' });
    expect(again.result.isError).toBe(true);
    expect(again.text).toMatch(/cancelled.*Yours \(waitlisted\) is kept/);
    const cancelledEvent = await call(guest, 'get_event', { id: 'sold-out-workshop', country: 'ch' });
    expect(cancelledEvent.data.cancelled).toBe(true);
    expect(cancelledEvent.text).toMatch(/^CANCELLED/);
    await request(`${server.base}/api/events`, { key: hostKey, json: { action: 'restore', externalId: 'wl' } });
    expect((await call(guest, 'rsvp', { id: 'sold-out-workshop' })).data).toMatchObject({
      status: 'waitlisted',
      changed: false,
    });
    expect((await call(late, 'rsvp', { id: 'sold-out-workshop' })).data.status).toBe('waitlisted');
    await guest.close();
    await late.close();
  });

  it('refuses foreign Host or Origin (DNS rebinding), answers GET/DELETE with 405 and unknown sessions with 404', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreignOrigin = await fetch(`${server.base}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: JSON.stringify(init),
    });
    expect(foreignOrigin.status).toBe(403);
    const localOrigin = await fetch(`${server.base}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, origin: 'http://localhost:5173' },
      body: JSON.stringify(init),
    });
    expect(localOrigin.status).toBe(200);
    expect(localOrigin.headers.get('access-control-allow-origin')).toBe('*');
    // Streamable HTTP (2025-06-18): a server offering no SSE stream answers GET with 405; the body is a JSON-RPC error.
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.base}/api/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('POST');
      expect(res.headers.get('content-type'), method).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: { code: number } }).error.code, method).toBe(-32000);
    }
    const session = await fetch(`${server.base}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'abc' },
      body: JSON.stringify(init),
    });
    expect(session.status).toBe(404);
    expect(session.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await session.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });
});

describe('official MCP conformance suite (pinned 0.1.13)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: NOW });
  });
  afterAll(() => server?.close());

  it.each(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'])('passes %s', async (scenario) => {
    // Asynchronous: the server under test runs in this very process.
    const cli = `${ROOT}/node_modules/@modelcontextprotocol/conformance/dist/index.js`;
    const run = await promisify(execFile)(
      process.execPath,
      [cli, 'server', '--url', `${server.base}/api/mcp`, '--scenario', scenario],
      {
        cwd: ROOT,
        timeout: 60_000,
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const output = `${run.stdout}${run.stderr}`;
    expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  });
});
