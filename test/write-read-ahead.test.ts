import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../src/catalogue/errors.js';
import { submitEvent } from '../src/use-cases/submit-event.js';
import { openTestContext, type TestContext } from './helpers/context.js';
import { ENGINES } from './helpers/engines.js';

/**
 * A host write reads the stored event while the key is checked (both need only the id the token names): one
 * database round trip less. What must hold: the read starts before the key check ends; nothing is stored or
 * answered for a key that does not check out; and a read overtaken by another write costs a retry, never a lost or
 * doubled write.
 */

const NOW = '2026-03-01T09:00:00Z';
const submission = (title: string) => ({
  externalId: 'read-ahead-1',
  title,
  startAt: '2026-04-02T18:00:00+02:00',
  city: 'Zürich',
  country: 'ch',
});

describe.each(ENGINES)('host writes read ahead (%s)', (engine) => {
  let t: TestContext;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    t = await openTestContext(engine, NOW);
    const created = await t.ctx.keys.create('Read-ahead host', 'ch');
    key = created.key;
    keyId = created.record.id;
  });
  afterAll(async () => t?.close());

  /** The context with the key lookup held until `release()`, recording when the event read starts. */
  function heldKeyCheck() {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const keys = Object.create(t.ctx.keys) as typeof t.ctx.keys;
    keys.find = async (id) => {
      await gate;
      log.push('key checked');
      return t.ctx.keys.find(id);
    };
    const events = Object.create(t.ctx.events) as typeof t.ctx.events;
    events.findByExternalId = (...args) => {
      log.push('event read');
      return t.ctx.events.findByExternalId(...args);
    };
    return { ctx: { ...t.ctx, keys, events }, log, release };
  }

  it('reads the stored event while the key is checked, once per update', async () => {
    await submitEvent(t.ctx, key, submission('Read-ahead meetup'));
    const held = heldKeyCheck();
    const write = submitEvent(held.ctx, key, submission('Read-ahead meetup, new title'));
    await new Promise((r) => setTimeout(r, 20));
    expect(held.log).toEqual(['event read']);
    held.release();
    const { event, created } = await write;
    expect(created).toBe(false);
    expect(event.title).toBe('Read-ahead meetup, new title');
    expect(held.log).toEqual(['event read', 'key checked']);
  });

  it('stores nothing and answers nothing for a key whose secret does not check out', async () => {
    const forged = `tev_${keyId}_${'A'.repeat(43)}`;
    await expect(submitEvent(t.ctx, forged, submission('Forged title'))).rejects.toMatchObject({
      code: 'invalid-key',
    });
    await expect(submitEvent(t.ctx, undefined, submission('No key'))).rejects.toBeInstanceOf(ServiceError);
    const stored = await t.ctx.events.findByExternalId(`key:${keyId}`, 'read-ahead-1');
    expect(stored?.title).toBe('Read-ahead meetup, new title');
  });

  it('tries again when another write lands between the read and the change', async () => {
    const before = (await t.ctx.events.findByExternalId(`key:${keyId}`, 'read-ahead-1'))!;
    const held = heldKeyCheck();
    const late = submitEvent(held.ctx, key, submission('The later write'));
    await new Promise((r) => setTimeout(r, 20));
    // Another write overtakes the one whose read is done and whose key is still being checked.
    const overtaking = await submitEvent(t.ctx, key, submission('The overtaking write'));
    expect(overtaking.event.revision).toBe(before.revision + 1);
    held.release();
    const { event } = await late;
    expect(event.title).toBe('The later write');
    expect(event.revision).toBe(before.revision + 2);
    const stored = (await t.ctx.events.findByExternalId(`key:${keyId}`, 'read-ahead-1'))!;
    expect(stored.title).toBe('The later write');
    expect(stored.id).toBe(before.id);
  });
});
