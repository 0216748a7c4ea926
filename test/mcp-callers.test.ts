import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2025-03-01T09:00:00Z';

describe.each(ENGINES)('MCP over HTTP on %s: each request sees its own caller', (engine) => {
  let server: TestServer;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW });
    const host = await server.createKey('Host', 'ch');
    await request(`${server.base}/api/events`, {
      key: host,
      json: {
        externalId: 'wl',
        title: 'Queue Workshop',
        startAt: '2025-03-08T09:00:00+01:00',
        city: 'Bern',
        regMode: 'waitlist',
        capacity: 10,
      },
    });
    keyA = await server.createKey('Guest A', 'ch');
    keyB = await server.createKey('Guest B', 'ch');
  });
  afterAll(() => server?.close());

  const post = async (body: unknown, key?: string) => {
    const res = await fetch(`${server.base}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      result: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };
    };
  };
  const rsvp = (key?: string) =>
    post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'rsvp', arguments: { id: 'queue-workshop' } } },
      key,
    );

  it('two keys, anonymous and a bad key, concurrently: every answer is for its own caller', async () => {
    // A waitlist place identifies a key: A queues first, B second.
    expect((await rsvp(keyA)).result.structuredContent).toMatchObject({ status: 'waitlisted', waitlistPlace: 1 });
    expect((await rsvp(keyB)).result.structuredContent).toMatchObject({ status: 'waitlisted', waitlistPlace: 2 });

    const badKey = 'tev_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const tampered = `${keyA.slice(0, -1)}${keyA.endsWith('A') ? 'B' : 'A'}`; // A's id, a wrong secret
    const search = () =>
      post({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_events', arguments: { q: 'workshop', city: 'Bern' } },
      });
    const callers = ['A', 'B', 'anonymous', 'bad', 'tampered', 'search'] as const;
    const send = {
      A: () => rsvp(keyA),
      B: () => rsvp(keyB),
      anonymous: () => rsvp(),
      bad: () => rsvp(badKey),
      tampered: () => rsvp(tampered),
      search,
    };
    // Sixty requests in flight at once, in three rounds, callers interleaved.
    for (let round = 0; round < 3; round++) {
      const plan = Array.from({ length: 60 }, (_, i) => callers[(i * 7 + round) % callers.length]!);
      const answers = await Promise.all(plan.map((who) => send[who]()));
      plan.forEach((who, i) => {
        const { result } = answers[i]!;
        const text = result.content[0]!.text;
        if (who === 'search') {
          expect(result.structuredContent?.events[0]?.id, text).toBe('queue-workshop');
        } else if (who === 'A' || who === 'B') {
          expect(result.isError, `${who}: ${text}`).toBeFalsy();
          expect(result.structuredContent).toMatchObject({
            eventId: 'queue-workshop',
            status: 'waitlisted',
            changed: false,
            waitlistPlace: who === 'A' ? 1 : 2,
          });
        } else {
          expect(result.isError, who).toBe(true);
          expect(text, who).toMatch(who === 'anonymous' ? /needs an API key/ : /unknown or revoked/);
        }
      });
    }
  });
});
