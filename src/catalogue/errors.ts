/**
 * One catalogue of the errors the service can answer with. Each transport maps a ServiceError once:
 * HTTP as RFC 9457 problem+json (status from here), MCP as an `isError` tool result, the CLI as an exit code.
 */
export interface ProblemDefinition {
  status: number;
  title: string;
  /** What it means and what the caller can do, shown at /problems/<code>. */
  explanation: string;
}

export const PROBLEMS = {
  'invalid-request': {
    status: 422,
    title: 'The request has invalid fields',
    explanation:
      'One or more fields or query parameters are invalid. `errors` lists each as `{field, message, given}`: the field, what it accepts, and the value given (cut short; absent when the field was missing). Nothing was changed.',
  },
  'malformed-json': {
    status: 400,
    title: 'The body is not valid JSON',
    explanation: 'The request body could not be parsed as JSON. Nothing was changed.',
  },
  'bad-request': {
    status: 400,
    title: 'The request cannot be understood',
    explanation: 'The request is not of a shape this endpoint takes, for example an API key sent in the query string.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported content type',
    explanation: 'Send the body as `Content-Type: application/json`.',
  },
  'payload-too-large': {
    status: 413,
    title: 'The body is too large',
    explanation: 'Request bodies are limited to 64 KiB, batches (POST /api/events/batch) to 5 MiB.',
  },
  'missing-key': {
    status: 401,
    title: 'An API key is required',
    explanation:
      'Send a host API key as `Authorization: Bearer <key>`. Keys are issued with `tech-events keys create`.',
  },
  'invalid-key': {
    status: 401,
    title: 'The API key is not valid',
    explanation: 'The key is unknown or has been revoked. Ask the operator for a new key.',
  },
  'not-owner': {
    status: 403,
    title: 'This event belongs to another key',
    explanation: 'Only the key that created an event may change, cancel or restore it.',
  },
  'event-not-found': {
    status: 404,
    title: 'No such event',
    explanation: 'No event has this id (with this key, no event has this externalId).',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    explanation: 'There is nothing at this address.',
  },
  'calendar-not-found': {
    status: 404,
    title: 'No such calendar',
    explanation: 'This key has no linked calendar with this id (GET /api/calendars lists them).',
  },
  'too-many-calendars': {
    status: 409,
    title: 'Too many linked calendars',
    explanation:
      'A key may link a limited number of calendars (20 unless the operator says otherwise). Unlink one (DELETE /api/calendars/<id>) before linking another.',
  },
  'proposal-not-found': {
    status: 404,
    title: 'No such proposal',
    explanation:
      'No proposal has this id. A proposal’s id is in the answer that made it (`id`, `statusUrl`); the operator lists them with `tech-events proposals list`.',
  },
  'proposal-decided': {
    status: 409,
    title: 'The proposal is decided already',
    explanation:
      'Only a waiting proposal can be accepted or rejected, and only an accepted calendar removed. `state` in the proposal (GET /api/proposals/<id>) says where it is.',
  },
  'already-synced': {
    status: 409,
    title: 'The calendar is synced already',
    explanation:
      'The catalogue syncs this calendar already (from its feeds file, a host’s linked calendar, or an accepted proposal), so accepting it would list its events twice. `preview.alreadySynced` names where; reject the proposal instead.',
  },
  'proposals-full': {
    status: 503,
    title: 'Too many proposals are waiting',
    explanation:
      'The operator has many proposals to look at, and no more are taken until they have. Try again later (`Retry-After`); nothing was stored.',
  },
  'webhook-not-found': {
    status: 404,
    title: 'No such webhook subscription',
    explanation: 'This key has no webhook subscription with this id (GET /api/webhooks lists them).',
  },
  'webhook-message-not-found': {
    status: 404,
    title: 'No such webhook message',
    explanation: 'This subscription sent no message with this id (GET /api/webhooks/<id> shows its last deliveries).',
  },
  'too-many-webhooks': {
    status: 409,
    title: 'Too many webhook subscriptions',
    explanation:
      'A key may hold a limited number of webhook subscriptions (20 unless the operator says otherwise). Delete one (DELETE /api/webhooks/<id>) before adding another.',
  },
  'event-cancelled': {
    status: 409,
    title: 'The event is cancelled',
    explanation:
      'A cancelled event takes no registrations. Registrations it had are kept, and count again if the host restores it.',
  },
  'registration-at-source': {
    status: 409,
    title: 'Registration is at the source',
    explanation:
      'Only events a host runs here (pushed with a host key) take RSVPs. An imported event is registered for where it comes from: `registrationUrl` is that link (null when the source gave none). Nothing was stored.',
  },
  'missing-holder': {
    status: 401,
    title: 'Who RSVPs is not known',
    explanation:
      'An RSVP belongs to someone: sign in with a passkey at /me (the pages send its session cookie), connect an assistant with an OAuth token (MCP authorization, scope `rsvp`), or send a host API key as `Authorization: Bearer <key>`.',
  },
  'rsvp-not-found': {
    status: 404,
    title: 'No such RSVP',
    explanation:
      'The caller has no RSVP for this event, or (for a host) no RSVP of the event has this handle. GET /api/events/<id>/rsvps lists an event’s RSVPs by handle.',
  },
  'rsvp-not-requested': {
    status: 409,
    title: 'The RSVP is not a request',
    explanation:
      'Only a `requested` RSVP (an `invite` event’s) is approved or declined. Repeating the decision that made its state changes nothing; `status` says where it is.',
  },
  'key-revoked': {
    status: 409,
    title: 'The key is revoked',
    explanation:
      'A revoked key stays revoked: it cannot be given a new secret. Issue a new key (`tech-events keys create`); the events of the revoked key stay in the catalogue.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    explanation: 'This address does not take this HTTP method.',
  },
  'admin-disabled': {
    status: 404,
    title: 'The admin API is disabled',
    explanation: 'Set ADMIN_TOKEN on the server to enable the admin API.',
  },
  'not-signed-in': {
    status: 401,
    title: 'Not signed in',
    explanation:
      'This needs a signed-in attendee: create a passkey or sign in with one at /me (the session is a cookie). Nothing was changed.',
  },
  'passkey-refused': {
    status: 400,
    title: 'The passkey ceremony failed',
    explanation:
      'The passkey answer did not verify: its challenge was unknown, used or late (challenges last five minutes), it came from another origin, or the passkey is not known here. Start again from /me; nothing was stored.',
  },
  'cross-site': {
    status: 403,
    title: 'Refused from another site',
    explanation:
      'Writes made with the session cookie must come from this site’s own pages (`Sec-Fetch-Site: same-origin`, or an `Origin` equal to the site’s). Nothing was changed.',
  },
  'request-timeout': {
    status: 408,
    title: 'The request took too long to arrive',
    explanation:
      "The request line, headers and body must arrive within the server's request timeout (30 s by default). The connection was closed; nothing was changed.",
  },
  'headers-too-large': {
    status: 431,
    title: 'The request headers are too large',
    explanation: 'The request line and headers together are limited to 16 KiB. Nothing was changed.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    explanation:
      'Writes are limited per API key and reads per client address, each to a number of requests per minute; keyless proposals (POST /api/calendars/proposals, POST /api/keys/requests) per client address and hour. Wait the number of seconds given in `Retry-After` (also `retryAfter` in the body) and retry; the rejected request changed nothing.',
  },
  'storage-unavailable': {
    status: 503,
    title: 'The database is unavailable',
    explanation: 'The service cannot reach its database right now. Retry shortly; nothing was changed.',
  },
  overloaded: {
    status: 503,
    title: 'The service is overloaded',
    explanation:
      'Reads that rank wait their turn, and this one would have waited longer than a few seconds behind those ahead of it, so it was refused at once rather than left to time out. Wait the number of seconds given in `Retry-After` (also `retryAfter` in the body) and ask again; other nodes may answer sooner.',
  },
  'storage-busy': {
    status: 503,
    title: 'The database is busy',
    explanation:
      'Writes wait their turn for the database, up to a bound on how many may wait and for how long; this one found the queue full or waited its longest. Wait the number of seconds given in `Retry-After` (also `retryAfter` in the body) and send it again unchanged; nothing was changed.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    explanation: 'Something unexpected failed on our side. It has been logged.',
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof PROBLEMS;

export interface FieldError {
  field: string;
  /** What is wrong and what the field accepts. */
  message: string;
  /** The value given, as JSON, cut short (see shownValue); absent when the field was missing. */
  given?: string;
}

/** Characters of a value an error quotes back: enough to recognise it, never a whole body. */
const GIVEN_MAX = 40;

/**
 * A value as an error quotes it back: JSON (control characters, NUL and lone surrogates escaped), cut to
 * GIVEN_MAX characters with an ellipsis.
 */
export function shownValue(value: unknown): string {
  const cut = (s: string) => {
    const chars = Array.from(s);
    return chars.length > GIVEN_MAX ? `${chars.slice(0, GIVEN_MAX).join('')}…` : s;
  };
  if (typeof value === 'string') return JSON.stringify(cut(value));
  return cut(JSON.stringify(value) ?? String(value));
}

/** `field "given": message`, the line a problem's detail and a tool error say for each bad field. */
export const fieldErrorLine = (e: FieldError) => `${e.field}${e.given ? ` ${e.given}` : ''}: ${e.message}`;

export class ServiceError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ProblemCode,
    detail?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? PROBLEMS[code].title);
    this.status = PROBLEMS[code].status;
    this.title = PROBLEMS[code].title;
  }
}

export class ValidationError extends ServiceError {
  constructor(
    readonly errors: FieldError[],
    detail?: string,
  ) {
    super('invalid-request', detail ?? errors.map(fieldErrorLine).join('; '), { errors });
  }
}

export const notFound = (detail: string) => new ServiceError('event-not-found', detail);
