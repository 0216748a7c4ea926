import { request } from './http.js';
import { startTestServer, type TestServer } from './server.js';

/** What the escaping tests' catalogue takes as now. */
const NOW = '2025-03-01T09:00:00Z';
/** A title with every character markdown, HTML or iCal gives a meaning to. */
export const NASTY = 'Pipes | [brackets] *stars* <b>bold</b> `code` _u_ ~s~ & \\ back\nnew line';

/**
 * A service on the shipped seed with two events pushed by a host in Switzerland: one whose title, venue and
 * description carry characters every output must escape (NASTY), one plain. Returns the server and the host's key.
 */
export async function startEscapingServer(): Promise<{ server: TestServer; key: string }> {
  const server = await startTestServer('pglite', { now: NOW, env: { SEED: '1' } });
  const key = await server.createKey('Escaping Society', 'ch');
  const push = (body: Record<string, unknown>) => request(`${server.base}/api/events`, { key, json: body });
  await push({
    externalId: 'nasty',
    title: NASTY,
    startAt: '2025-03-10T18:30:00+01:00',
    endAt: '2025-03-10T21:00:00+01:00',
    city: 'Zürich',
    venue: 'Bar | Café',
    topics: ['web'],
    capacity: 60,
    description: 'Line one; with, commas\nand a second line',
  });
  await push({
    externalId: 'plain',
    title: 'Plain Meetup',
    startAt: '2025-03-11T18:00:00+01:00',
    city: 'Bern',
    topics: ['web'],
  });
  return { server, key };
}
