import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The language an event is held in: a plain field of the event model, so accepted on write, stored, shown in every
 * read shape, a `lang` filter of the shared grammar over HTTP and MCP, and documented in OpenAPI.
 */
describe.each(ENGINES)('the event language on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let mcp: Client;
  const event = (externalId: string, title: string, extra: Record<string, unknown> = {}) => ({
    externalId,
    title,
    startAt: '2026-12-03T18:30:00+01:00',
    city: 'Zürich',
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-11-23T09:00:00Z' });
    key = await server.createKey('Polyglot Hosts', 'ch');
    for (const [id, title, language] of [
      ['de', 'Rust Stammtisch', 'de'],
      ['fr', 'Apéro Rust', 'fr'],
      ['en', 'Rust Night', 'en'],
    ] as const) {
      const res = await request(`${server.base}/api/events`, { key, json: event(id, title, { language }) });
      expect(res.status).toBe(201);
    }
    expect((await request(`${server.base}/api/events`, { key, json: event('none', 'Rust Open Space') })).status).toBe(
      201,
    );
    mcp = await connectMcp(server.base);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('is stored from the write API and shown in the read shape, null when not given', async () => {
    const res = await request(`${server.base}/api/events?country=ch&q=rust`);
    const byTitle = Object.fromEntries(res.body.events.map((e: { title: string; language: unknown }) => [e.title, e]));
    expect(byTitle['Rust Stammtisch'].language).toBe('de');
    expect(byTitle['Apéro Rust'].language).toBe('fr');
    expect(byTitle['Rust Open Space'].language).toBeNull();
    const mine = await request(`${server.base}/api/events?mine=1`, { key });
    expect(mine.body.events.find((e: { title: string }) => e.title === 'Rust Night').language).toBe('en');
  });

  it('filters with lang (any of a list), restates it, and refuses an unknown value on read and write', async () => {
    const de = await request(`${server.base}/api/events?country=ch&lang=de`);
    expect(de.body.events.map((e: { title: string }) => e.title)).toEqual(['Rust Stammtisch']);
    expect(de.body.understood).toContain('held in German');
    expect(de.body.events[0].matchReasons).toContain('Language: German');
    const two = await request(`${server.base}/api/events?country=ch&q=rust&lang=de,fr`);
    expect(two.body.events.map((e: { title: string }) => e.title).sort()).toEqual(['Apéro Rust', 'Rust Stammtisch']);
    expect(two.body.calendar).toContain('lang=de%2Cfr');
    const bad = await request(`${server.base}/api/events?lang=xx`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('lang');
    const refused = await request(`${server.base}/api/events`, { key, json: event('x', 'Rust', { language: 'rm' }) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('language');
    const md = await request(`${server.base}/api/md?country=ch&lang=fr`);
    expect(md.text).toContain('Apéro Rust');
    expect(md.text).not.toContain('Rust Stammtisch');
  });

  it('is part of the MCP tools’ grammar and outputs', async () => {
    const { tools } = await mcp.listTools();
    const find = tools.find((t) => t.name === 'find_events')!;
    expect(Object.keys(find.inputSchema.properties ?? {})).toContain('lang');
    const result = await mcp.callTool({ name: 'find_events', arguments: { country: 'ch', lang: ['fr', 'en'] } });
    const events = (result.structuredContent as { events: { title: string; language: string }[] }).events;
    expect(events.map((e) => e.language).sort()).toEqual(['en', 'fr']);
  });

  it('is documented in OpenAPI: the Event, the submission and the lang parameter', async () => {
    const { body } = await request(`${server.base}/api/openapi.json`);
    const language = body.components.schemas.Event.properties.language;
    expect(language.anyOf).toContainEqual(expect.objectContaining({ enum: ['en', 'de', 'fr', 'it'] }));
    expect(language.anyOf).toContainEqual({ type: 'null' });
    expect(body.components.schemas.EventSubmission.properties.language).toBeDefined();
    expect(body.paths['/api/events'].get.parameters.map((p: { name: string }) => p.name)).toContain('lang');
  });
});
