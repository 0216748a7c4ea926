import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS } from '../src/catalogue/errors.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('API documentation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server?.close());

  it('serves an OpenAPI 3.1 document generated from the validation schemas', async () => {
    const res = await request(`${server.base}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers[0].url).toBe(server.base);
    const submission = res.body.components.schemas.EventSubmission;
    expect(submission.required).toEqual(['title', 'startAt']);
    expect(submission.additionalProperties).toBe(false);
    expect(submission.properties.format.enum).toEqual(['in_person', 'online', 'hybrid']);
    // Every route a program calls (the HTML pages aside).
    expect(Object.keys(res.body.paths).sort()).toEqual(
      [
        '/api/events',
        '/api/events/batch',
        '/api/events/{id}',
        '/api/md',
        '/{country}.md',
        '/api/calendar',
        '/api/feed',
        '/api/events.geojson',
        '/embed.js',
        '/{country}.atom',
        '/{country}/cities/{city}.atom',
        '/{country}/topics/{topic}.atom',
        '/{country}/events/{id}.ics',
        '/api/mcp',
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/api/mcp',
        '/.well-known/oauth-authorization-server/oauth',
        '/api/admin/keys',
        '/api/admin/keys/{id}/revoke',
        '/api/admin/keys/{id}/rotate',
        '/api/admin/sync',
        '/api/admin/calendars/check',
        '/api/admin/sync/{id}',
        '/api/sources',
        '/api/calendars',
        '/api/calendars/{id}',
        '/api/calendars/proposals',
        '/api/keys/requests',
        '/api/proposals/{id}',
        '/api/admin/proposals',
        '/api/admin/proposals/{id}',
        '/api/admin/proposals/{id}/accept',
        '/api/admin/proposals/{id}/reject',
        '/api/admin/proposals/{id}/remove',
        '/api/webhooks',
        '/api/events/{id}/rsvp',
        '/api/events/{id}/rsvps',
        '/api/events/{id}/rsvps/{handle}',
        '/api/events/{id}/capacity',
        '/api/webhooks/{id}',
        '/api/webhooks/{id}/pause',
        '/api/webhooks/{id}/resume',
        '/api/webhooks/{id}/rotate',
        '/api/webhooks/{id}/deliveries/{msg}/resend',
        '/api/me',
        '/api/me/passkeys/options',
        '/api/me/passkeys',
        '/api/me/session/options',
        '/api/me/session',
        '/api/me/calendar',
        '/me/calendar/{file}',
        '/healthz',
        '/readyz',
        '/metrics',
      ].sort(),
    );
    expect(res.body.paths['/api/events'].post.responses['422']).toBeDefined();
  });

  it('serves a readable API reference at /docs', async () => {
    const res = await request(`${server.base}/docs`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger/i);
  });

  it('documents every problem type at its type URI', async () => {
    for (const code of Object.keys(PROBLEMS)) {
      const res = await request(`${server.base}/problems/${code}`);
      expect(res.status, code).toBe(200);
      expect(res.text).toContain(PROBLEMS[code as keyof typeof PROBLEMS].title);
    }
    expect((await request(`${server.base}/problems/nope`)).status).toBe(404);
  });

  it('answers unknown paths with a problem+json 404, and CORS preflights openly', async () => {
    const res = await request(`${server.base}/no/such/thing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    const preflight = await fetch(`${server.base}/api/events`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  });

  it('answers /healthz once ready', async () => {
    const res = await request(`${server.base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', engine: 'pglite' });
  });
});
