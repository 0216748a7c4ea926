import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzParams, hostileOrLong, hostileString } from './helpers/fuzz.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Property-based tests of the MCP tools' arguments and of JSON-RPC bodies against a live server holding the curated
 * catalogue: a result or a tool error that advises, never a JSON-RPC or internal error, never a 5xx.
 */

const NOW = '2025-03-01T09:00:00Z';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { now: NOW, env: { SEED: '1' } });
});
afterAll(() => server?.close());

/** Messages of exceptions that escaped a tool instead of becoming advice. */
const RAW_ERROR =
  /internal error|URI malformed|invalid byte sequence|encoding "UTF8"|syntax error|TypeError|RangeError|ReferenceError|\bat \w+ \(/i;

describe('fuzzing MCP tool arguments', () => {
  let client: Client;

  beforeAll(async () => {
    const key = await server.createKey('MCP Fuzz Host', 'ch');
    client = await connectMcp(server.base, key);
  });
  afterAll(() => client?.close());

  /** A value of the right type or of any type at all. */
  const anything = fc.oneof(
    { weight: 4, arbitrary: hostileString() },
    { weight: 1, arbitrary: hostileOrLong(500) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constantFrom(null, [], {}, ['ai-ml'], ['junior', 'x']) },
  );
  const field = (good: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: anything });
  const filters = {
    country: field(fc.constantFrom('ch', 'de', 'at')),
    city: field(fc.constantFrom('Zürich', 'Berlin', 'Wien')),
    near: field(fc.boolean()),
    topic: field(fc.constantFrom(['ai-ml'], ['web', 'data'])),
    seniority: field(fc.constantFrom(['junior'], ['executive'])),
    format: field(fc.constantFrom('online', 'hybrid')),
    org: field(fc.constantFrom('basta.net')),
    who: field(fc.constant('founders')),
    limit: field(fc.integer({ min: 1, max: 100 })),
  };
  const dates = { from: field(fc.constant('2025-03-01')), to: field(fc.constant('2025-06-30')) };
  const call = fc.oneof(
    fc.record({
      name: fc.constant('search_events'),
      args: fc.record({ q: field(hostileString()), ...filters }, { requiredKeys: [] }),
    }),
    fc.record({ name: fc.constant('find_events'), args: fc.record({ ...filters, ...dates }, { requiredKeys: [] }) }),
    fc.record({
      name: fc.constant('best_next_event'),
      args: fc.record(
        {
          wishes: field(hostileString()),
          country: filters.country,
          city: filters.city,
          ...dates,
          audience: field(fc.constant('founders')),
        },
        { requiredKeys: [] },
      ),
    }),
    fc.record({
      name: fc.constant('get_event'),
      args: fc.record(
        {
          id: field(fc.constantFrom('devopsdays-zurich', 'nope')),
          country: filters.country,
          url: field(hostileString()),
        },
        { requiredKeys: [] },
      ),
    }),
    fc.record({
      name: fc.constant('subscribe_calendar'),
      args: fc.record({ q: field(hostileString()), ...filters }, { requiredKeys: [] }),
    }),
    fc.record({
      name: fc.constant('rsvp'),
      args: fc.record(
        {
          id: field(fc.constantFrom('devopsdays-zurich', 'nope')),
          country: filters.country,
          action: field(fc.constantFrom('register', 'withdraw')),
        },
        { requiredKeys: [] },
      ),
    }),
  );

  it('answers any tool arguments with a result or a tool error, never a JSON-RPC or internal error', async () => {
    const outcomes = { ok: 0, toolError: 0 };
    await fc.assert(
      fc.asyncProperty(call, async ({ name, args }) => {
        // Argument errors of a known tool are tool errors (test/mcp-arguments.test.ts): a thrown protocol error fails.
        const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
        const content = result.content as { type: string; text: string }[];
        expect(content.length).toBeGreaterThan(0);
        if (result.isError) {
          outcomes.toolError++;
          // A tool error is advice for the assistant, never a raw exception, database or SDK message.
          expect(content[0]!.text, `${name} ${JSON.stringify(args)}`).not.toMatch(RAW_ERROR);
          expect(content[0]!.text, `${name} ${JSON.stringify(args)}`).not.toMatch(/MCP error|Input validation error/);
        } else {
          outcomes.ok++;
          expect(result.structuredContent).toBeDefined();
        }
      }),
      fuzzParams(250),
    );
    console.log(`fuzz MCP tool calls: ${JSON.stringify(outcomes)}`);
    expect(outcomes.ok).toBeGreaterThan(0);
  });

  it('answers malformed ids and page URLs with advice, not raw exception or database messages', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['get_event', { id: '%' }],
      ['get_event', { url: `${server.base}/ch/events/%E0%A4%A` }],
      ['get_event', { id: '\u0000', country: 'ch' }],
      ['get_event', { id: '%00' }],
      ['rsvp', { id: '\u0000' }],
    ];
    for (const [name, args] of cases) {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text, `${name} ${JSON.stringify(args)}`).not.toMatch(RAW_ERROR);
    }
  });

  it('answers arbitrary JSON-RPC bodies without a 5xx', async () => {
    const body = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc
        .record({
          jsonrpc: fc.oneof(fc.constant('2.0'), hostileString()),
          id: fc.oneof(fc.integer(), hostileString(), fc.constant(null)),
          method: fc.oneof(
            fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'resources/list'),
            hostileString(),
          ),
          params: fc.oneof(
            fc.object(),
            fc.record({
              name: fc.oneof(fc.constantFrom('search_events', 'rsvp'), hostileString()),
              arguments: fc.object(),
            }),
          ),
        })
        .map((o) => JSON.stringify(o)),
      hostileString(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const res = await request(`${server.base}/api/mcp`, {
          body: text,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        });
        expect(res.status, `${text.slice(0, 200)} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }),
      fuzzParams(150),
    );
  });
});
