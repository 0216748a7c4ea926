import { bearer, body, ID_IN_PATH, json, listOf, problem, ref } from './openapi-common.js';

const stamp = { type: ['string', 'null'], format: 'date-time' };
/** What the admin API shows of a key (src/use-cases/keys.ts `KeySummary`), never its secret. */
const KEY_SUMMARY = {
  type: 'object',
  required: ['id', 'name', 'country', 'createdAt', 'revokedAt', 'rotatedAt', 'previousSecretExpiresAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    country: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    revokedAt: stamp,
    rotatedAt: stamp,
    previousSecretExpiresAt: stamp,
  },
};
const WITH_SECRET = {
  allOf: [KEY_SUMMARY, { type: 'object', required: ['key'], properties: { key: { type: 'string' } } }],
};
const SYNC_RUN = {
  type: 'object',
  required: ['id', 'state', 'startedAt', 'finishedAt', 'progress'],
  properties: {
    id: { type: 'string' },
    state: { enum: ['running', 'done', 'failed'] },
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: stamp,
    progress: { type: 'object' },
    feeds: {
      type: 'array',
      items: { type: 'object', required: ['source'], properties: { source: { type: 'string' } } },
    },
    error: { type: 'string' },
  },
};
const malformed = problem('Malformed JSON, or not valid UTF-8');
const notJson = problem('Not application/json');

/** The paths of /api/admin: keys and syncs, with ADMIN_TOKEN. */
export const adminPaths = {
  '/api/admin/keys': {
    get: {
      summary: 'List host keys (admin; enabled by ADMIN_TOKEN)',
      security: bearer,
      responses: {
        200: json('Keys, without secrets', listOf('keys', KEY_SUMMARY)),
        401: problem('Bad admin token'),
      },
    },
    post: {
      summary: 'Create a host key (admin); the response holds the only copy of the key',
      security: bearer,
      requestBody: body(ref('CreateKey')),
      responses: {
        201: json('The new key', WITH_SECRET),
        400: malformed,
        401: problem('Bad admin token'),
        415: notJson,
        422: problem('Invalid fields'),
      },
    },
  },
  '/api/admin/keys/{id}/revoke': {
    post: {
      summary: 'Revoke a host key (admin)',
      security: bearer,
      parameters: [ID_IN_PATH],
      responses: {
        200: json('The revoked key', KEY_SUMMARY),
        400: problem('An id holding a character that cannot be stored, such as NUL (`bad-request`)'),
        401: problem('Bad admin token'),
        404: problem('Unknown key'),
      },
    },
  },
  '/api/admin/keys/{id}/rotate': {
    post: {
      summary: 'Give a host key a new secret (admin); the response holds the only copy of the new key',
      description:
        'The key keeps its id, so its events, externalIds and RSVPs stay with it. The old secret stops working ' +
        'at once, or, with `grace`, at `previousSecretExpiresAt`. Rotating again during a grace period ends it: ' +
        'the oldest secret stops at once, the one being replaced gets the new grace period.',
      security: bearer,
      parameters: [ID_IN_PATH],
      requestBody: body(ref('RotateKey'), false),
      responses: {
        200: json('The key with its new secret (`key`) and `previousSecretExpiresAt`', WITH_SECRET),
        400: problem('Malformed JSON, not valid UTF-8, or an id holding NUL (`bad-request`)'),
        401: problem('Bad admin token'),
        404: problem('Unknown key'),
        409: problem('The key is revoked (`key-revoked`)'),
        415: notJson,
        422: problem('Invalid grace period'),
      },
    },
  },
  '/api/admin/sync': {
    post: {
      summary:
        'Start a sync of every enabled feed of the feeds file and the linked calendars, as the timer does (admin)',
      description:
        'Reads the feeds file as it is now and answers at once with the run (the one under way, if any; runs do ' +
        'not pile up); the sync goes on in steps that leave the service to its readers, each calendar under its ' +
        'own deadline. Follow `Location` (GET /api/admin/sync/{id}) for its progress and results.',
      security: bearer,
      responses: {
        202: json('The run (the one under way, if any); `Location` is its address', SYNC_RUN),
        400: problem('The feeds file is not valid'),
        401: problem('Bad admin token'),
      },
    },
  },
  '/api/admin/sync/{id}': {
    get: {
      summary: 'A sync run: its state and progress, and once done what each feed changed (admin)',
      description: 'Runs are kept in the node that ran them, the last hundred, until it restarts.',
      security: bearer,
      parameters: [ID_IN_PATH],
      responses: {
        200: json(
          'The run: progress {feeds, feedsDone, linkedCalendars}; once done `feeds`: [{source, created, updated, ' +
            'unchanged, cancelled, restored, skipped, failingCalendars?, cut?, cutCalendars?} | {source, error}]; ' +
            '`error` if it failed',
          SYNC_RUN,
        ),
        401: problem('Bad admin token'),
        404: problem('No such run on this node'),
      },
    },
  },
};
