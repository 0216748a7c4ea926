import { type Kysely, sql } from 'kysely';
import { camelCased, type Database } from './schema.js';
import type { RunCounts } from './sources.repository.js';

/** The state a sync keeps of one URL or calendar of a source (see migration 0012). */
export interface PartState {
  source: string;
  part: string;
  url: string;
  etag: string | null;
  lastModified: string | null;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  lastChangedAt: Date | null;
  lastError: string | null;
  /** Failed reads since the last success. */
  failures: number;
  /** Reads in a row that found a valid but empty calendar. */
  emptyReads: number;
  lastRun: RunCounts | null;
  /** A digest of the content last read (see calendarDigest), to tell an unchanged calendar without validators. */
  contentHash: string | null;
}

/** The validators a part was last served with, as a conditional request sends them back. */
export function validatorsOf(state: PartState | undefined): { etag?: string; lastModified?: string } {
  return {
    ...(state?.etag ? { etag: state.etag } : {}),
    ...(state?.lastModified ? { lastModified: state.lastModified } : {}),
  };
}

/** One read of a part: a success (maybe not modified), or a failure that keeps what the part held. */
export interface PartRun {
  source: string;
  part: string;
  url: string;
  at: Date;
  /** Absent when the read succeeded. */
  error?: string;
  /** A success that brought content: its validators, empty reads in a row and counts. */
  changed?: {
    etag?: string | undefined;
    lastModified?: string | undefined;
    contentHash?: string | undefined;
    emptyReads: number;
    counts: RunCounts;
  };
}

/** SQL for the state of sources' parts lives here only. */
export class SourcePartsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(source?: string): Promise<PartState[]> {
    let query = this.db.selectFrom('source_parts').selectAll();
    if (source !== undefined) query = query.where('source', '=', source);
    const rows = await query.orderBy('source').orderBy('part').execute();
    return rows.map((row) => camelCased(row) as PartState);
  }

  /**
   * Records one read. A failure keeps the validators and counts of the last success; a success without change
   * (304) keeps them too; a success with content replaces them.
   */
  async record(run: PartRun): Promise<void> {
    const ok = run.error === undefined;
    const changed = run.changed;
    await this.db
      .insertInto('source_parts')
      .values({
        source: run.source,
        part: run.part,
        url: run.url,
        etag: changed?.etag ?? null,
        last_modified: changed?.lastModified ?? null,
        last_attempt_at: run.at,
        last_success_at: ok ? run.at : null,
        last_changed_at: changed ? run.at : null,
        last_error: run.error ?? null,
        failures: ok ? 0 : 1,
        empty_reads: changed?.emptyReads ?? 0,
        last_run: changed ? JSON.stringify(changed.counts) : null,
        content_hash: changed?.contentHash ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['source', 'part']).doUpdateSet((eb) => ({
          url: run.url,
          last_attempt_at: run.at,
          last_error: run.error ?? null,
          failures: ok ? 0 : sql<number>`source_parts.failures + 1`,
          last_success_at: ok ? run.at : eb.ref('source_parts.last_success_at'),
          ...(changed
            ? {
                etag: changed.etag ?? null,
                last_modified: changed.lastModified ?? null,
                last_changed_at: run.at,
                empty_reads: changed.emptyReads,
                last_run: JSON.stringify(changed.counts),
                content_hash: changed.contentHash ?? null,
              }
            : {}),
        })),
      )
      .execute();
  }

  /** Forgets the validators of a source's parts: the next read of each is unconditional. */
  async forgetValidators(source: string): Promise<void> {
    await this.db
      .updateTable('source_parts')
      .set({ etag: null, last_modified: null })
      .where('source', '=', source)
      .execute();
  }
}
