import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { issueSecret } from '../auth/api-keys.js';
import { camelCased, type Database, type ModerationLogTable, type ProposalsTable } from './schema.js';

type Kind = ProposalsTable['kind'];
type State = ProposalsTable['state'];

/** A proposal as stored: a calendar to sync (`given`…`preview`) or a key request (`organisation`…`keyShownAt`). */
export interface ProposalRecord {
  id: string;
  kind: Kind;
  state: State;
  createdAt: Date;
  decidedAt: Date | null;
  reason: string | null;
  country: string;
  given: string | null;
  url: string | null;
  platform: string | null;
  format: string | null;
  name: string | null;
  city: string | null;
  preview: unknown;
  organisation: string | null;
  plans: string | null;
  website: string | null;
  keyId: string | null;
  keyShownAt: Date | null;
}

export interface ModerationEntry {
  proposalId: string;
  at: Date;
  actor: string;
  action: ModerationLogTable['action'];
  reason: string | null;
}

export type NewProposal = Pick<ProposalRecord, 'kind' | 'state' | 'country'> &
  Partial<
    Pick<
      ProposalRecord,
      'given' | 'url' | 'platform' | 'format' | 'name' | 'city' | 'organisation' | 'plans' | 'website'
    >
  >;

/** Unguessable: a proposal's status URL is all a proposer holds. */
const newId = () => `prp_${randomBytes(16).toString('hex')}`;

/** SQL for proposals and their moderation log lives here only. */
export class ProposalsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a proposal; undefined when its calendar URL is proposed already (the unique index decides, race-free). */
  async create(proposal: NewProposal): Promise<ProposalRecord | undefined> {
    const row = await this.db
      .insertInto('proposals')
      .values({
        id: newId(),
        kind: proposal.kind,
        state: proposal.state,
        country: proposal.country,
        given: proposal.given ?? null,
        url: proposal.url ?? null,
        platform: proposal.platform ?? null,
        format: proposal.format ?? null,
        name: proposal.name ?? null,
        city: proposal.city ?? null,
        organisation: proposal.organisation ?? null,
        plans: proposal.plans ?? null,
        website: proposal.website ?? null,
        decided_at: null,
        reason: null,
        preview: null,
        key_id: null,
        key_shown_at: null,
      })
      .onConflict((oc) => oc.column('url').where('kind', '=', 'calendar').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && camelCased(row);
  }

  async find(id: string): Promise<ProposalRecord | undefined> {
    const row = await this.db.selectFrom('proposals').selectAll().where('id', '=', id).executeTakeFirst();
    return row && camelCased(row);
  }

  /** The calendar proposal of a normalised URL. */
  async findByUrl(url: string): Promise<ProposalRecord | undefined> {
    const row = await this.db
      .selectFrom('proposals')
      .selectAll()
      .where('kind', '=', 'calendar')
      .where('url', '=', url)
      .executeTakeFirst();
    return row && camelCased(row);
  }

  /** Proposals, oldest first, of a state and kind when given. */
  async list(filter: { state?: State; kind?: Kind; limit?: number } = {}): Promise<ProposalRecord[]> {
    let query = this.db.selectFrom('proposals').selectAll();
    if (filter.state) query = query.where('state', '=', filter.state);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (filter.limit) query = query.limit(filter.limit);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(camelCased);
  }

  /** How many wait for a read or the operator: what the cap on them counts. */
  async pending(): Promise<number> {
    const row = await this.db
      .selectFrom('proposals')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('state', 'in', ['reading', 'waiting'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Keeps a read's preview; a proposal still `reading` then waits for the operator. */
  async setPreview(id: string, preview: unknown): Promise<void> {
    await this.db
      .updateTable('proposals')
      .set({
        preview: JSON.stringify(preview),
        state: sql<State>`CASE WHEN state = 'reading' THEN 'waiting' ELSE state END`,
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Moves a proposal from one of `from` to `to` with its decision logged, in one transaction; undefined when it was
   * in none of them (decided meanwhile).
   */
  async decide(
    id: string,
    from: readonly State[],
    to: State,
    entry: Omit<ModerationEntry, 'proposalId'>,
    set: { keyId?: string } = {},
  ): Promise<ProposalRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('proposals')
        .set({
          state: to,
          decided_at: entry.at,
          reason: entry.reason,
          ...(set.keyId ? { key_id: set.keyId } : {}),
        })
        .where('id', '=', id)
        .where('state', 'in', [...from])
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .insertInto('moderation_log')
        .values({ proposal_id: id, at: entry.at, actor: entry.actor, action: entry.action, reason: entry.reason })
        .execute();
      return camelCased(row);
    });
  }

  /** The latest `limit` decisions on any proposal, newest first, each with the kind of its proposal. */
  async recentLog(limit: number): Promise<(ModerationEntry & { kind: ProposalRecord['kind'] })[]> {
    const rows = await this.db
      .selectFrom('moderation_log')
      .innerJoin('proposals', 'proposals.id', 'moderation_log.proposal_id')
      .select([
        'moderation_log.proposal_id',
        'moderation_log.at',
        'moderation_log.actor',
        'moderation_log.action',
        'moderation_log.reason',
        'proposals.kind',
      ])
      .orderBy('moderation_log.at', 'desc')
      .orderBy('moderation_log.proposal_id')
      .limit(limit)
      .execute();
    return rows.map(camelCased);
  }

  async log(id: string): Promise<ModerationEntry[]> {
    const rows = await this.db
      .selectFrom('moderation_log')
      .selectAll()
      .where('proposal_id', '=', id)
      .orderBy('at')
      .execute();
    return rows.map(camelCased);
  }

  /**
   * Gives out an accepted key request's key once: marks it shown and gives its key a new secret, in one transaction,
   * so of concurrent visitors exactly one gets it. Undefined when it was shown already (or its key is revoked).
   */
  async claimKey(id: string, at: Date): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('proposals')
        .set({ key_shown_at: at })
        .where('id', '=', id)
        .where('state', '=', 'accepted')
        .where('key_id', 'is not', null)
        .where('key_shown_at', 'is', null)
        .returning(['key_id'])
        .executeTakeFirst();
      if (!row?.key_id) return undefined;
      const issued = issueSecret(row.key_id);
      const updated = await trx
        .updateTable('api_keys')
        .set({ secret_hash: issued.secretHash })
        .where('id', '=', row.key_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0 ? issued.key : undefined;
    });
  }
}
