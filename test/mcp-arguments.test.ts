import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOPIC_SLUGS } from '../src/catalogue/taxonomy.js';
import { TOOLS } from '../src/mcp/tools.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Every argument error of every tool is a tool result with `isError`, worded for the assistant in one style —
 * which argument, what was given, what it accepts — whether the value is of the wrong type or enum (which the
 * SDK would refuse in words of its own before the handler) or wrong only for the query grammar.
 */
describe('MCP tool arguments', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
    client = await connectMcp(server.base);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  const bad: [string, Record<string, unknown>, string, RegExp][] = [
    ['find_events', { limit: 5000 }, 'limit 5000', /whole number from 1 to 100/],
    ['find_events', { country: 'fr' }, 'country "fr"', /must be ch, de, at or all/],
    ['find_events', { near: 'x', city: 'Bern' }, 'near "x"', /must be 1 or true \(with city: widen it/],
    ['find_events', { limit: 'abc' }, 'limit "abc"', /whole number from 1 to 100/],
    ['find_events', { from: 20250301 }, 'from 20250301', /must be a date YYYY-MM-DD/],
    ['search_events', { q: 5 }, 'q 5', /must be free text, at most 500 characters/],
    ['search_events', { topic: 'astro' }, 'topic', /unknown topic "astro"; use ai-ml, data/],
    ['search_events', { topic: ['ai-ml', 7] }, 'topic', /comma list of ai-ml, data, .* \(or a list of them\)/],
    ['search_events', { format: 'teleport' }, 'format "teleport"', /one of in_person, online, hybrid/],
    ['best_next_event', { audience: 'kids' }, 'audience "kids"', /one of founders, student, junior/],
    ['best_next_event', { wishes: 42 }, 'wishes 42', /free text, at most 500 characters/],
    ['get_event', { id: 'devopsdays-zurich', country: 'fr' }, 'country "fr"', /must be one of ch, de, at/],
    ['get_event', { id: 5 }, 'id 5', /an event's id \(its slug, as search_events gives it\)/],
    ['subscribe_calendar', { country: 'it' }, 'country "it"', /must be ch, de, at or all/],
    ['subscribe_calendar', { city: 'Atlantis' }, 'city', /"Atlantis" is not a known city in ch/],
    ['rsvp', { id: 'devopsdays-zurich', action: 'maybe' }, 'action "maybe"', /must be register or withdraw/],
    ['rsvp', {}, 'id', /^is required|id: is required \(must be an event's id/],
  ];
  it.each(bad)('%s %j is a tool error naming %s and what it accepts', async (name, args, named, accepted) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(result.isError, text).toBe(true);
    expect(text).toMatch(/^Invalid arguments — /);
    expect(text).toContain(named);
    expect(text).toMatch(accepted);
    expect(text).toMatch(/Call the tool again with these corrected\.$/);
    expect(text).not.toMatch(/MCP error|-32602|Input validation error|Invalid input|Invalid option/);
  });

  it('lists every bad argument of a call at once', async () => {
    const result = await client.callTool({ name: 'find_events', arguments: { country: 'fr', limit: 0, who: 'all' } });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(result.isError).toBe(true);
    expect(text).toContain('country "fr": must be ch, de, at or all');
    expect(text).toContain('limit 0: must be a whole number from 1 to 100');
    expect(text).toContain('who "all": must be founders');
  });

  it('still takes arguments in the typed forms a tool call sends them', async () => {
    const result = await client.callTool({
      name: 'find_events',
      arguments: { city: 'Zürich', near: true, limit: 3, topic: ['cloud-devops', 'AI-ML'] },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect((result.structuredContent as { events: unknown[] }).events.length).toBeLessThanOrEqual(3);
  });

  it('lists each tool with its exact input schema: enums, the topic slugs and required arguments included', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const schema = TOOLS[tool.name as keyof typeof TOOLS].inputSchema as z.ZodType;
      expect(tool.inputSchema, tool.name).toEqual(z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }));
    }
    const find = tools.find((t) => t.name === 'find_events')!.inputSchema.properties as Record<string, any>;
    expect(find.country.enum).toEqual(['ch', 'de', 'at', 'all']);
    const list = find.topic.anyOf.find((branch: { type: string }) => branch.type === 'array');
    expect(list.items.enum).toEqual([...TOPIC_SLUGS]);
    expect(tools.find((t) => t.name === 'rsvp')!.inputSchema.required).toEqual(['id']);
  });
});
