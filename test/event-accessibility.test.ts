import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confsTechImporter } from '../src/importers/confs-tech.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * What an event offers deaf and hard-of-hearing attendees: a plain field of the event model (an entry in PLAIN_FIELDS
 * and a migration), so accepted on write, stored, shown in every read shape, an `access` filter of the shared
 * grammar over HTTP and MCP, documented in OpenAPI, and read from confs.tech's `offersSignLanguageOrCC`.
 */
describe.each(ENGINES)('the event accessibility on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let mcp: Client;
  const event = (externalId: string, title: string, extra: Record<string, unknown> = {}) => ({
    externalId,
    title,
    startAt: '2026-12-03T18:30:00+01:00',
    city: 'Bern',
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-11-23T09:00:00Z' });
    key = await server.createKey('Inclusive Hosts', 'ch');
    const captioned = event('captioned', 'Kotlin Night', { accessibility: 'sign-language-or-captions' });
    expect((await request(`${server.base}/api/events`, { key, json: captioned })).status).toBe(201);
    expect((await request(`${server.base}/api/events`, { key, json: event('plain', 'Kotlin Breakfast') })).status).toBe(
      201,
    );
    mcp = await connectMcp(server.base);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('is stored from the write API and shown in the read shape, null when not given', async () => {
    const res = await request(`${server.base}/api/events?country=ch&q=kotlin`);
    const byTitle = Object.fromEntries(res.body.events.map((e: { title: string }) => [e.title, e]));
    expect(byTitle['Kotlin Night'].accessibility).toBe('sign-language-or-captions');
    expect(byTitle['Kotlin Breakfast'].accessibility).toBeNull();
  });

  it('filters with access, restates it, and refuses an unknown value on read and write', async () => {
    const res = await request(`${server.base}/api/events?country=ch&access=sign-language-or-captions`);
    expect(res.body.events.map((e: { title: string }) => e.title)).toEqual(['Kotlin Night']);
    expect(res.body.understood).toContain('with sign language or captions');
    expect(res.body.events[0].matchReasons).toContain('Accessibility: sign language or captions');
    const bad = await request(`${server.base}/api/events?access=ramp`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('access');
    const refused = await request(`${server.base}/api/events`, {
      key,
      json: event('x', 'K', { accessibility: 'yes' }),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('accessibility');
  });

  it('a page filtered by it lists only those events, and says so in its language', async () => {
    const said = {
      en: 'with sign language or captions',
      de: 'mit Gebärdensprache oder Untertiteln',
      fr: 'avec langue des signes ou sous-titres',
      it: 'con lingua dei segni o sottotitoli',
    };
    for (const [lang, words] of Object.entries(said)) {
      const page = await request(`${server.base}/ch?q=kotlin&access=sign-language-or-captions&hl=${lang}`);
      expect(page.status).toBe(200);
      const understood = /<p class="understood"[^>]*>([\s\S]*?)<\/p>/.exec(page.text)?.[1] ?? '';
      expect([lang, understood]).toEqual([lang, expect.stringContaining(words)]);
      expect(page.text).toContain('Kotlin Night');
      expect(page.text).not.toContain('Kotlin Breakfast');
    }
  });

  it('is part of the MCP tools’ grammar and outputs, and documented in OpenAPI', async () => {
    const { tools } = await mcp.listTools();
    const find = tools.find((t) => t.name === 'find_events')!;
    expect(Object.keys(find.inputSchema.properties ?? {})).toContain('access');
    const result = await mcp.callTool({
      name: 'find_events',
      arguments: { country: 'ch', access: ['sign-language-or-captions'] },
    });
    const events = (result.structuredContent as { events: { title: string; accessibility: string }[] }).events;
    expect(events.map((e) => [e.title, e.accessibility])).toEqual([['Kotlin Night', 'sign-language-or-captions']]);
    const { body } = await request(`${server.base}/api/openapi.json`);
    const field = body.components.schemas.Event.properties.accessibility;
    expect(field.anyOf).toContainEqual(expect.objectContaining({ enum: ['sign-language-or-captions'] }));
    expect(body.components.schemas.EventSubmission.properties.accessibility).toBeDefined();
    expect(body.paths['/api/events'].get.parameters.map((p: { name: string }) => p.name)).toContain('access');
  });

  it('is read from confs.tech, where a conference says it offers sign language or captions', () => {
    const row = { name: 'stackconf', url: 'https://stackconf.eu', startDate: '2027-06-15', city: 'Berlin' };
    const { records } = confsTechImporter.parse(
      JSON.stringify([
        { ...row, offersSignLanguageOrCC: true },
        { ...row, name: 'other', offersSignLanguageOrCC: false },
      ]),
      { now: new Date('2026-11-23T09:00:00Z') },
    );
    expect(records.map((r) => r.accessibility)).toEqual(['sign-language-or-captions', undefined]);
  });
});
