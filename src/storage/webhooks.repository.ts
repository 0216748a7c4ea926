import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { camelCased, type Database, type WebhookDecisionsTable, type WebhookSubscriptionsTable } from './schema.js';

export type SubscriptionState = WebhookSubscriptionsTable['state'];

/** A key's webhook subscription, its secrets included (only the use cases that sign or create one read them). */
export interface WebhookSubscription {
  id: string;
  keyId: string;
  url: string;
  query: Record<string, unknown>;
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
  state: SubscriptionState;
  stateReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookMessage {
  id: string;
  subscriptionId: string;
  eventId: string;
  type: string;
  payload: string;
  createdAt: Date;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

/** A message claimed for one attempt, with where it goes and what signs it. */
export interface ClaimedMessage extends WebhookMessage {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
}

export type Decision = Pick<WebhookDecisionsTable, 'status' | 'fingerprint' | 'revision'>;

// Message records carry their row's `seq` and `claimedUntil` too, which nothing reads.
const toMessage = (row: object) => camelCased(row) as WebhookMessage;

/** The fan-out's advisory lock (database.ts's LOCK_SPACE): one node fans out at a time. */
const FAN_OUT_LOCK = sql`${sql.lit(0x74657673)}, hashtext('webhook-fan-out')`;

/** SQL for webhooks lives here only. Times of delivery are the database's clock, shared by every node. */
export class WebhooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(keyId: string, url: string, query: Record<string, unknown>, secret: string) {
    const row = await this.db
      .insertInto('webhook_subscriptions')
      .values({
        id: `whk_${randomBytes(10).toString('hex')}`,
        key_id: keyId,
        url,
        query: JSON.stringify(query) as unknown as Record<string, unknown>,
        secret,
        previous_secret: null,
        previous_until: null,
        state: 'active',
        state_reason: null,
        failing_since: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return camelCased(row);
  }

  async find(id: string): Promise<WebhookSubscription | undefined> {
    const row = await this.db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && camelCased(row);
  }

  /** A key's subscriptions not deleted, oldest first. */
  async listByKey(keyId: string): Promise<WebhookSubscription[]> {
    const rows = await this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('key_id', '=', keyId)
      .where('state', '!=', 'deleted')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(camelCased);
  }

  /** The subscriptions messages are made for: active, of keys not revoked. */
  async active(): Promise<WebhookSubscription[]> {
    const rows = await this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('state', '=', 'active')
      .where('key_id', 'in', (eb) => eb.selectFrom('api_keys').select('id').where('revoked_at', 'is', null))
      .execute();
    return rows.map(camelCased);
  }

  /** Sets the state (from any but `deleted`); the subscription as it is now, or undefined if it was deleted. */
  async setState(id: string, state: SubscriptionState, reason: string | null) {
    const row = await this.db
      .updateTable('webhook_subscriptions')
      .set({
        state,
        state_reason: reason,
        updated_at: sql<Date>`now()`,
        ...(state === 'active' ? { failing_since: null } : {}),
      })
      .where('id', '=', id)
      .where('state', '!=', 'deleted')
      .returningAll()
      .executeTakeFirst();
    return row && camelCased(row);
  }

  /** A new secret; the current one keeps signing for `overlapMs`. */
  async rotate(id: string, secret: string, overlapMs: number) {
    const row = await this.db
      .updateTable('webhook_subscriptions')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_until: sql<Date>`now() + ${sql.lit(overlapMs)} * interval '1 millisecond'`,
        secret,
        updated_at: sql<Date>`now()`,
      }))
      .where('id', '=', id)
      .where('state', '!=', 'deleted')
      .returningAll()
      .executeTakeFirst();
    return row && camelCased(row);
  }

  /** The subscription's latest messages, newest first. */
  async recentMessages(subscriptionId: string, limit: number): Promise<WebhookMessage[]> {
    const rows = await this.db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toMessage);
  }

  async message(subscriptionId: string, id: string): Promise<WebhookMessage | undefined> {
    const row = await this.db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('id', '=', id)
      .where('subscription_id', '=', subscriptionId)
      .executeTakeFirst();
    return row && toMessage(row);
  }

  /** Makes a message due now under its id, its attempts counted anew (an attempt under way then does not end it). */
  async resend(id: string): Promise<WebhookMessage | undefined> {
    const row = await this.db
      .updateTable('webhook_messages')
      .set({ state: 'pending', next_attempt_at: sql<Date>`now()`, attempts: 0 })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    await sql`SELECT pg_notify('webhooks', '')`.execute(this.db);
    return row && toMessage(row);
  }

  /** One fan-out step in a transaction, given the changes it claimed; undefined while another node holds the lock. */
  async fanOut<T>(
    limit: number,
    work: (
      changes: { seq: number; eventId: string; revision: number }[],
      repository: WebhooksRepository,
      trx: Kysely<Database>,
    ) => Promise<T>,
  ): Promise<T | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${FAN_OUT_LOCK}) AS locked`.execute(trx);
      if (!rows[0]?.locked) return undefined;
      const changes = await trx
        .selectFrom('webhook_changes')
        .select(['seq', 'event_id', 'revision'])
        .orderBy('seq')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      return work(
        changes.map((c) => ({ seq: Number(c.seq), eventId: c.event_id, revision: c.revision })),
        new WebhooksRepository(trx),
        trx,
      );
    });
  }

  /** An attempt cut short by the service stopping: due again at once, that attempt not counted. */
  async release(id: string): Promise<void> {
    await this.db
      .updateTable('webhook_messages')
      .set((eb) => ({ claimed_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }

  async deleteChanges(seqs: readonly number[]): Promise<void> {
    if (seqs.length > 0) await this.db.deleteFrom('webhook_changes').where('seq', 'in', seqs).execute();
  }

  /** The last decisions about these events, by subscription id then event id. */
  async decisions(eventIds: readonly string[]): Promise<Map<string, Decision>> {
    const out = new Map<string, Decision>();
    if (eventIds.length === 0) return out;
    const rows = await this.db.selectFrom('webhook_decisions').selectAll().where('event_id', 'in', eventIds).execute();
    for (const r of rows) out.set(`${r.subscription_id} ${r.event_id}`, r);
    return out;
  }

  async saveDecisions(rows: (Decision & { subscription_id: string; event_id: string })[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('webhook_decisions')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['subscription_id', 'event_id']).doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          fingerprint: eb.ref('excluded.fingerprint'),
          revision: eb.ref('excluded.revision'),
        })),
      )
      .execute();
  }

  /** Adds messages, in order, and wakes every node's delivery. */
  async addMessages(messages: { subscriptionId: string; eventId: string; type: string; payload: string }[]) {
    if (messages.length === 0) return;
    await this.db
      .insertInto('webhook_messages')
      .values(
        messages.map((m) => ({
          id: `msg_${randomBytes(12).toString('hex')}`,
          subscription_id: m.subscriptionId,
          event_id: m.eventId,
          type: m.type,
          payload: m.payload,
          claimed_until: null,
          last_attempt_at: null,
          last_status: null,
          last_error: null,
          delivered_at: null,
        })),
      )
      .execute();
    await sql`SELECT pg_notify('webhooks', '')`.execute(this.db);
  }

  /**
   * Claims up to `limit` due messages of active subscriptions for one attempt each, for `leaseMs`: claimed by one
   * node at a time (SKIP LOCKED while claiming, the lease after), and a message only once those before it for the
   * same subscription and event are delivered or given up, so each event's messages arrive in order.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    const { rows } = await sql<object>`
      UPDATE webhook_messages m
         SET claimed_until = now() + ${sql.lit(leaseMs)} * interval '1 millisecond',
             attempts = m.attempts + 1,
             last_attempt_at = now()
        FROM (
          SELECT d.id, s.url, s.secret, s.previous_secret, s.previous_until
            FROM webhook_messages d
            JOIN webhook_subscriptions s ON s.id = d.subscription_id
            JOIN api_keys k ON k.id = s.key_id AND k.revoked_at IS NULL
           WHERE d.state = 'pending' AND s.state = 'active' AND d.next_attempt_at <= now()
             AND (d.claimed_until IS NULL OR d.claimed_until < now())
             AND NOT EXISTS (
               SELECT 1 FROM webhook_messages e
                WHERE e.subscription_id = d.subscription_id AND e.event_id = d.event_id
                  AND e.state = 'pending' AND e.seq < d.seq)
           ORDER BY d.next_attempt_at, d.seq
           LIMIT ${limit}
           FOR UPDATE OF d SKIP LOCKED
        ) c
       WHERE m.id = c.id
      RETURNING m.*, c.url, c.secret, c.previous_secret, c.previous_until`.execute(this.db);
    return rows.map((row) => camelCased(row) as ClaimedMessage);
  }

  /** Attempts that worked, recorded together: the messages are delivered, their subscriptions no longer failing. */
  async delivered(done: readonly { message: ClaimedMessage; status: number }[]): Promise<void> {
    if (done.length === 0) return;
    const values = done.map(({ message: m, status }) => sql`(${m.id}, ${status}::integer, ${m.attempts}::integer)`);
    await this.db.transaction().execute(async (trx) => {
      await sql`
        UPDATE webhook_messages m
           SET state = CASE WHEN m.attempts = v.attempts THEN 'delivered' ELSE m.state END,
               delivered_at = CASE WHEN m.attempts = v.attempts THEN now() ELSE m.delivered_at END,
               claimed_until = NULL, last_status = v.status, last_error = NULL
          FROM (VALUES ${sql.join(values)}) AS v (id, status, attempts)
         WHERE m.id = v.id`.execute(trx);
      await trx
        .updateTable('webhook_subscriptions')
        .set({ failing_since: null })
        .where('id', 'in', [...new Set(done.map((d) => d.message.subscriptionId))])
        .where('failing_since', 'is not', null)
        .execute();
    });
  }

  /**
   * An attempt that failed: tried again after `retryInMs`, or (undefined) given up — and then the subscription is
   * set to `stop` (paused after a day of failures, disabled on 410) with why.
   */
  async failed(
    message: ClaimedMessage,
    outcome: { status: number | null; error: string; retryInMs: number | undefined; stop?: SubscriptionState },
    reason?: string,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_messages')
        .set({
          state: outcome.retryInMs === undefined ? 'failed' : 'pending',
          next_attempt_at:
            outcome.retryInMs === undefined
              ? sql<Date>`now()`
              : sql<Date>`now() + ${sql.lit(Math.round(outcome.retryInMs))} * interval '1 millisecond'`,
          claimed_until: null,
          last_status: outcome.status,
          last_error: outcome.error.slice(0, 500),
        })
        .where('id', '=', message.id)
        .execute();
      await trx
        .updateTable('webhook_subscriptions')
        .set({ failing_since: sql<Date>`coalesce(failing_since, now())` })
        .where('id', '=', message.subscriptionId)
        .execute();
      if (outcome.stop)
        await trx
          .updateTable('webhook_subscriptions')
          .set({ state: outcome.stop, state_reason: reason ?? null, updated_at: sql<Date>`now()` })
          .where('id', '=', message.subscriptionId)
          .where('state', '=', 'active')
          .execute();
    });
  }
}
