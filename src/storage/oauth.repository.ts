import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A model's payload as oidc-provider stores it (its own shape; `consumed` is set here when it is used once). */
export type OAuthPayload = Record<string, unknown>;

/** The models that belong to a grant (as oidc-provider's own memory adapter counts them). */
const GRANTABLE = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
];

/**
 * SQL for the OAuth authorization server's models (clients, interactions, sessions, grants, codes, tokens) lives
 * here only: the operations of an oidc-provider adapter, one instance per model name. Expired rows are not found.
 */
export class OAuthModelsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async upsert(model: string, id: string, payload: OAuthPayload, expiresInSeconds: number | undefined): Promise<void> {
    const expires =
      typeof expiresInSeconds === 'number' ? new Date(this.now().getTime() + expiresInSeconds * 1000) : null;
    const row = {
      model,
      id,
      payload: JSON.stringify(payload),
      grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
      expires_at: expires,
      consumed_at: null,
    };
    await this.db
      .insertInto('oauth_models')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          uid: row.uid,
          user_code: row.user_code,
          expires_at: row.expires_at,
          consumed_at: null,
        }),
      )
      .execute();
  }

  find(model: string, id: string): Promise<OAuthPayload | undefined> {
    return this.findWhere(model, 'id', id);
  }

  findByUid(model: string, uid: string): Promise<OAuthPayload | undefined> {
    return this.findWhere(model, 'uid', uid);
  }

  findByUserCode(model: string, userCode: string): Promise<OAuthPayload | undefined> {
    return this.findWhere(model, 'user_code', userCode);
  }

  private async findWhere(
    model: string,
    column: 'id' | 'uid' | 'user_code',
    value: string,
  ): Promise<OAuthPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_models')
      .select(['payload', 'consumed_at'])
      .where('model', '=', model)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', this.now())]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    // The library reads `consumed` (epoch seconds) to refuse a code or refresh token used a second time.
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  }

  async consume(model: string, id: string): Promise<void> {
    await this.db
      .updateTable('oauth_models')
      .set({ consumed_at: this.now() })
      .where('model', '=', model)
      .where('id', '=', id)
      .execute();
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.db.deleteFrom('oauth_models').where('model', '=', model).where('id', '=', id).execute();
  }

  /** Every code and token of a grant (a grant revoked, or a code used twice, takes them all). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oauth_models').where('grant_id', '=', grantId).where('model', 'in', GRANTABLE).execute();
  }

  /** Deletes rows expired before `before`; returns how many. */
  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('oauth_models').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
