import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzParams } from './helpers/fuzz.js';
import { request } from './helpers/http.js';
import {
  invalidValue,
  mediaType,
  type Operation,
  operationsOf,
  resolve,
  type Schema,
  schemaValidator,
  serialise,
  validValue,
} from './helpers/openapi.js';
import { ROOT } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The OpenAPI document against the real answers, as a contract fuzzer checks it (Schemathesis' status, content-type
 * and schema conformance checks): for every operation, requests made from its declared parameters and bodies, valid
 * and invalid, keyless, with a host key, with the admin token and with an unknown key, against a listening server;
 * every answer's status must be declared for the operation, its media type declared for that status, and a JSON
 * body must validate against the declared schema.
 */

const NOW = '2026-03-01T09:00:00Z';
const ADMIN_TOKEN = 'contract-admin-token-0123456789';
const RUNS_PER_OPERATION = 14;

let server: TestServer;
let document: Schema;
let validate: ReturnType<typeof schemaValidator>;
let hostKey: string;
const known: Record<string, string[]> = { event: [], key: [] };

beforeAll(async () => {
  server = await startTestServer('pglite', { now: NOW, env: { SEED: '1', ADMIN_TOKEN } });
  hostKey = await server.createKey('Contract Host', 'ch');
  for (const [i, city] of ['Zürich', 'Bern'].entries()) {
    const res = await request(`${server.base}/api/events`, {
      key: hostKey,
      json: { externalId: `c-${i}`, title: `Contract Evening ${i}`, startAt: '2026-03-10T18:30:00+01:00', city },
    });
    expect(res.status, res.text).toBe(201);
    known.event!.push(res.body.id);
  }
  // Keys the fuzz may revoke and rotate without locking the host key out.
  for (const name of ['Spare One', 'Spare Two']) {
    const res = await request(`${server.base}/api/admin/keys`, { key: ADMIN_TOKEN, json: { name, country: 'de' } });
    expect(res.status, res.text).toBe(201);
    known.key!.push(res.body.id);
  }
  const res = await request(`${server.base}/api/openapi.json`);
  expect(res.status).toBe(200);
  document = res.body;
  validate = schemaValidator(document);
});
afterAll(() => server?.close());

const known0 = () => known.event![0]!;

type Credential = 'none' | 'host' | 'admin' | 'unknown';
const credentialOf = (c: Credential) =>
  ({ none: undefined, host: hostKey, admin: ADMIN_TOKEN, unknown: 'tev_unknownkeyunknownkeyunknownkey' })[c];

/** Known ids for a path parameter, so that operations reach their success answers, not only their 404s. */
function knownIds(op: Operation, name: string): string[] {
  if (name !== 'id') return [];
  if (op.path.startsWith('/api/admin/keys/')) return known.key!;
  if (op.path.includes('events')) return known.event!;
  return [];
}

/** Never a URL that would make the service reach another machine: linked calendars and webhooks go to refused addresses. */
const CALENDAR_URLS = ['http://127.0.0.1:9/x.ics', 'https://10.0.0.1/cal.ics', 'webcal://[::1]/c.ics', 'ftp://x/y'];

function parameterValue(op: Operation, p: { name: string; in: string; schema: Schema }): fc.Arbitrary<string> {
  const ids = knownIds(op, p.name);
  const schema = resolve(document, p.schema);
  // A path outside a path parameter's enum is no request of this operation (it names no route of it).
  if (p.in === 'path' && schema.enum) return fc.constantFrom(...schema.enum.map(String));
  return fc.oneof(
    { weight: 5, arbitrary: validValue(document, p.schema).map(serialise) },
    ...(ids.length ? [{ weight: 5, arbitrary: fc.constantFrom(...ids) }] : []),
    { weight: 2, arbitrary: invalidValue(resolve(document, p.schema)).map(serialise) },
  );
}

/** Messages an MCP client sends: requests, a notification, a tool call with fuzzed arguments. */
const jsonRpc = fc
  .oneof(
    fc.constantFrom(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } },
      },
    ),
    fc
      .record({
        name: fc.constantFrom('search_events', 'find_events', 'get_event', 'rsvp', 'subscribe_calendar', 'nope'),
        arguments: fc.dictionary(fc.constantFrom('q', 'country', 'id', 'limit', 'city'), fc.jsonValue({ maxDepth: 1 })),
      })
      .map((params) => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params })),
  )
  .map((message) => ({ text: JSON.stringify(message), type: 'application/json' }));

interface Case {
  path: string;
  query: [string, string][];
  credential: Credential;
  body?: { text: string; type: string };
}

function caseOf(op: Operation): fc.Arbitrary<Case> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const path = fc
    // A segment `.` or `..` is resolved away by the URL (RFC 3986 §5.2.4): that request is another operation's.
    .tuple(...pathParams.map((p) => parameterValue(op, p).filter((v) => v !== '' && v !== '.' && v !== '..')))
    .map((values) =>
      pathParams.reduce((at, p, i) => at.replace(`{${p.name}}`, encodeURIComponent(values[i]!)), op.path),
    );
  const query = fc
    .subarray(queryParams, { maxLength: Math.min(4, queryParams.length) })
    .chain((chosen) =>
      fc.tuple(...chosen.map((p) => parameterValue(op, p).map((v) => [p.name, v] as [string, string]))),
    )
    .map((pairs) => [...pairs]);
  const jsonSchema = op.requestBody?.content['application/json']?.schema;
  const body: fc.Arbitrary<Case['body']> = jsonSchema
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: validValue(document, jsonSchema).map((v) => ({
            text: JSON.stringify(
              op.path === '/api/calendars' || op.path === '/api/webhooks'
                ? { ...(v as object), url: CALENDAR_URLS[0] }
                : v,
            ),
            type: 'application/json',
          })),
        },
        {
          weight: 2,
          arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            { text: '{"title": ', type: 'application/json' },
            { text: 'title=x', type: 'application/x-www-form-urlencoded' },
            { text: '{}', type: 'text/plain' },
          ),
        },
        ...(op.path === '/api/mcp' ? [{ weight: 6, arbitrary: jsonRpc }] : []),
        ...(op.requestBody?.required ? [] : [{ weight: 1, arbitrary: fc.constant(undefined) }]),
      )
    : fc.constant(undefined);
  const credential = fc.constantFrom<Credential>('none', 'host', 'admin', 'unknown');
  return fc.record({ path, query, credential, body });
}

/** What is wrong with an answer by the document; undefined when it conforms. */
function nonConformance(op: Operation, status: number, contentType: string | null, text: string): string | undefined {
  const declared = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  if (!declared) return `status ${status} is not declared (declared: ${Object.keys(op.responses).join(', ')})`;
  if (status === 304 || text === '') return undefined;
  const type = mediaType(contentType);
  const content = declared.content ?? {};
  if (!Object.keys(content).some((t) => t === type))
    return `${status} ${type || 'without Content-Type'} is not a declared media type (${Object.keys(content).join(', ') || 'none'})`;
  const schema = content[type]?.schema;
  if (!schema || !/json/.test(type)) return undefined;
  const error = validate(schema, JSON.parse(text));
  return error && `${status} ${type} body does not validate: ${error}`;
}

describe('the OpenAPI document against real answers', () => {
  it('declares the media type of every answer with a body (304s and MCP’s accepted notifications have none)', () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(25);
    const untyped = operations.flatMap((op) =>
      Object.entries(op.responses)
        .filter(
          ([status, response]) =>
            status !== '304' && !(op.path === '/api/mcp' && status === '202') && !response.content,
        )
        .map(([status]) => `${op.method} ${op.path} ${status}`),
    );
    expect(untyped).toEqual([]);
  });

  const conformance = async (op: Operation, url: string, key?: string) => {
    const res = await request(`${server.base}${url}`, { key });
    return { res, wrong: nonConformance(op, res.status, res.headers.get('content-type'), res.text) };
  };
  const operation = (method: string, path: string) =>
    operationsOf(document).find((op) => op.method === method && op.path === path)!;

  it('declares mine and the fields it adds: a host’s own list validates, keyless or with a key the public one', async () => {
    const list = operation('GET', '/api/events');
    expect(list.parameters.map((p) => p.name)).toContain('mine');
    expect(list.security).toEqual([{}, { bearerAuth: [] }]);
    const own = await conformance(list, '/api/events?mine=1', hostKey);
    expect(own.res.status).toBe(200);
    expect(own.res.body.events.map((e: { externalId: string }) => e.externalId).sort()).toEqual(['c-0', 'c-1']);
    expect(own.wrong).toBeUndefined();
    const ownList = document.components.schemas.OwnEventList;
    expect(validate(ownList, own.res.body)).toBeUndefined();
    expect(validate(document.components.schemas.EventList, own.res.body)).toBeDefined();
    for (const key of [undefined, hostKey]) {
      const open = await conformance(list, '/api/events?mine=0&limit=2', key);
      expect([open.res.status, open.wrong]).toEqual([200, undefined]);
    }
    const keyless = await conformance(list, '/api/events?mine=1');
    expect([keyless.res.status, keyless.wrong]).toEqual([401, undefined]);
  });

  it('declares 431 where a declared parameter reaches the header limit (a cursor at its declared length)', async () => {
    const list = operation('GET', '/api/events');
    const cursor = list.parameters.find((p) => p.name === 'cursor')!;
    const longest = 'x'.repeat(cursor.schema.maxLength);
    const res = await conformance(list, `/api/events?cursor=${longest}`);
    expect(res.res.status).toBe(431);
    expect(res.wrong).toBeUndefined();
    const shorter = await conformance(list, `/api/events?cursor=${'x'.repeat(200)}`);
    expect([shorter.res.status, shorter.wrong]).toEqual([422, undefined]);
  });

  it('answers an .ics whose id holds a line terminator as its route does: a problem 404, not a page', async () => {
    const ics = operation('GET', '/{country}/events/{id}.ics');
    for (const id of ['x%0A', '%E2%80%A8x', 'a%0Db']) {
      const res = await conformance(ics, `/de/events/${id}.ics`);
      expect([res.res.status, res.wrong], id).toEqual([404, undefined]);
    }
    const known = await conformance(ics, `/ch/events/${encodeURIComponent(known0())}.ics`);
    expect([known.res.status, known.wrong]).toEqual([200, undefined]);
  });

  it('passes Redocly’s recommended lint with no error, its warnings the design’s own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      // Offline: no telemetry, no update check (the lint itself reads only the file).
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
      const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json'], {
        env: { ...env, REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number };
        problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
      };
      expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
      // Chosen, not missed: no operationIds (clients name calls by path), the MCP endpoint's GET and DELETE answer
      // only 405, `Event` is named for readers of the document, and a country's .ics path is no event id's; the
      // server URL is this test server's loopback BASE_URL.
      const accepted = new Set([
        'no-server-example.com',
        'operation-operationId',
        'operation-2xx-response',
        'no-unused-components',
        'no-ambiguous-paths',
      ]);
      expect(report.problems.filter((p) => !accepted.has(p.ruleId))).toEqual([]);
      const no2xx = report.problems.filter((p) => p.ruleId === 'operation-2xx-response');
      expect(no2xx.map((p) => p.location[0]!.pointer).sort()).toEqual([
        '#/paths/~1api~1mcp/delete/responses',
        '#/paths/~1api~1mcp/get/responses',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers every operation, fuzzed from its declared parameters and bodies, only as declared', async () => {
    const failures: string[] = [];
    for (const op of operationsOf(document)) {
      const before = failures.length;
      await fc
        .assert(
          fc.asyncProperty(caseOf(op), async (c) => {
            const url = `${server.base}${c.path}${c.query.length ? `?${new URLSearchParams(c.query)}` : ''}`;
            const headers: Record<string, string> = {};
            if (op.path === '/api/mcp') headers.accept = 'application/json, text/event-stream';
            if (c.body) headers['content-type'] = c.body.type;
            const res = await request(url, {
              method: op.method,
              key: credentialOf(c.credential),
              headers,
              ...(c.body ? { body: c.body.text } : {}),
            });
            const wrong = nonConformance(op, res.status, res.headers.get('content-type'), res.text);
            if (wrong) {
              const line = `${op.method} ${op.path} (${c.credential}) ${url.slice(server.base.length, 200)}: ${wrong}`;
              failures.push(line.slice(0, 600));
              return false;
            }
            return true;
          }),
          { ...fuzzParams(RUNS_PER_OPERATION), interruptAfterTimeLimit: 20_000, endOnFailure: true },
        )
        .catch((error: unknown) => {
          // A counterexample is listed already; a property that threw (a request that failed) is listed here.
          if (failures.length === before) failures.push(`${op.method} ${op.path}: ${String(error).slice(0, 600)}`);
        });
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
