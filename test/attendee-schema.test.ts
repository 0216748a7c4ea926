import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const TABLES = ['attendees', 'passkeys', 'attendee_sessions', 'registrations', 'webauthn_challenges'];

/** Nothing personal about attendees is stored: no column is an e-mail, a name or a client's address, on either engine. */
describe.each(ENGINES)('attendee tables on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server?.close());

  it('have no column for an e-mail, a name or an IP address', async () => {
    const rows = (await server.service.ctx.storage.db
      .selectFrom('information_schema.columns' as never)
      .select(['table_name as table', 'column_name as column', 'data_type as type'] as never)
      .where('table_schema' as never, '=', 'public' as never)
      .where('table_name' as never, 'in', TABLES as never)
      .execute()) as { table: string; column: string; type: string }[];
    // Every table is there (a misspelt name would check nothing), with the columns the design gives it.
    expect(new Set(rows.map((r) => r.table))).toEqual(new Set(TABLES));
    expect(rows.filter((r) => r.table === 'attendees').map((r) => r.column)).toEqual(
      expect.arrayContaining(['id', 'handle', 'calendar_token']),
    );
    const personal = rows.filter(
      (r) =>
        /mail|name|(^|_)ip($|_)|address|phone|agent|client|remote/.test(r.column) ||
        ['inet', 'cidr', 'macaddr'].includes(r.type),
    );
    expect(personal).toEqual([]);
  });
});
