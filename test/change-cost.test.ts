import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_FIELD_NAMES, PLAIN_FIELDS, type PlainField } from '../src/catalogue/event.js';
import { LANGUAGES } from '../src/i18n/languages.js';
import { PAGE_PARAMETERS, searchQuerySchema } from '../src/query/params.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ARCHITECTURE = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');

/** The rows of docs/architecture.md's "What a change touches": each change with the source files it names. */
function changeRows(): Map<string, string[]> {
  const section = ARCHITECTURE.split('### What a change touches')[1]!.split('\n### ')[0]!;
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = /^\| ([^|]+) \| (.+) \|$/.exec(line);
    if (!cells || cells[1] === 'Change' || cells[1]!.startsWith('---')) continue;
    const files = [...cells[2]!.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1]!);
    rows.set(cells[1]!.trim(), files);
  }
  return rows;
}

/** A named file as the files it stands for: `{en,de}` spelled out; `<format>` and `<next>` stand for a new file. */
const spelled = (file: string) => {
  const set = /\{([^}]+)\}/.exec(file);
  return set ? set[1]!.split(',').map((one) => file.replace(set[0], one)) : [file];
};

/**
 * What a kind of change costs (docs/architecture.md, "What a change touches"): the files the table names exist, a
 * plain field and an output format stay within two and three files, and what they derive does derive — every
 * parameter of the grammar reaches every output, OpenAPI, MCP, the pages and the embed; every plain field says itself
 * in every language.
 */
describe('what a change touches', () => {
  it('names files that exist, two for a plain field, three for an output format and five for a facet', () => {
    const rows = changeRows();
    for (const [change, files] of rows)
      for (const file of files.flatMap(spelled))
        if (!/<\w+>/.test(file)) expect([change, existsSync(`${ROOT}${file}`)]).toEqual([change, true]);
    expect(rows.get('A plain field, and its filter')).toHaveLength(2);
    expect(rows.get('An output format of the query grammar')).toHaveLength(3);
    expect(rows.get('A facet of the prompt')).toHaveLength(5);
  });

  it('has every plain field say its name, its filter and every value in every language', () => {
    for (const name of PLAIN_FIELD_NAMES) {
      const field: PlainField = PLAIN_FIELDS[name];
      for (const lang of LANGUAGES) {
        const words = field.words[lang];
        expect([name, lang, words.title.length > 0, words.filtered.includes('{values}')]).toEqual([
          name,
          lang,
          true,
          true,
        ]);
        for (const value of field.values) expect([name, lang, value, words.labels[value]?.length]).not.toContain(0);
      }
    }
  });

  describe('the grammar’s parameters reach every output', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer('pglite');
    });
    afterAll(() => server?.close());
    const grammar = Object.keys(searchQuerySchema.shape).sort();

    it('in the OpenAPI document of each output of a query', async () => {
      const document = (await (await fetch(`${server.base}/api/openapi.json`)).json()) as {
        paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
      };
      for (const path of ['/api/events', '/api/md', '/api/calendar', '/api/feed', '/api/events.geojson']) {
        const named = (document.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        expect([path, grammar.filter((name) => !named.includes(name))]).toEqual([path, []]);
      }
    });

    it('in the MCP search tools’ inputs, the pages’ and the embed’s parameters', async () => {
      const client = await connectMcp(server.base);
      try {
        const { tools } = await client.listTools();
        for (const name of ['search_events', 'find_events']) {
          const inputs = Object.keys(tools.find((tool) => tool.name === name)!.inputSchema.properties ?? {});
          expect([name, grammar.filter((param) => !inputs.includes(param))]).toEqual([name, []]);
        }
      } finally {
        await client.close();
      }
      expect([...PAGE_PARAMETERS].sort()).toEqual(grammar.filter((name) => name !== 'cursor'));
      const embed = await (await fetch(`${server.base}/embed.js`)).text();
      for (const param of PAGE_PARAMETERS) expect([param, embed.includes(`"${param}"`)]).toEqual([param, true]);
    });
  });
});
