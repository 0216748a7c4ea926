import {
  proposalDetailSchema,
  proposalViewSchema,
  proposeCalendarSchema,
  requestKeySchema,
} from '../use-cases/proposal-schemas.js';
import { bearer, body, ID_IN_PATH, json, listOf, problem, ref, schemaOf } from './openapi-common.js';

/** The schemas of proposals, for the OpenAPI document's components. */
export const proposalSchemas = {
  ProposeCalendar: schemaOf(proposeCalendarSchema, 'input'),
  RequestKey: schemaOf(requestKeySchema, 'input'),
  Proposal: schemaOf(proposalViewSchema, 'output'),
  ProposalDetail: schemaOf(proposalDetailSchema, 'output'),
};

/** What a keyless proposal may be answered besides itself. */
const PROPOSING = {
  400: problem('Malformed JSON, or not valid UTF-8'),
  413: problem('The body is too large'),
  415: problem('Not JSON, or JSON in a charset other than UTF-8'),
  429: problem('Too many proposals from this address this hour (`rate-limited`, Retry-After)'),
  503: problem('Too many proposals wait for the operator (`proposals-full`, Retry-After)'),
};

/** The decisions' common answers. */
const DECIDING = {
  400: problem('Malformed JSON, or not valid UTF-8'),
  401: problem('Bad admin token'),
  404: problem('No such proposal (`proposal-not-found`)'),
  409: problem('Not in a state for this decision (`proposal-decided`)'),
  415: problem('Not application/json'),
};
const REASON = {
  type: 'object',
  properties: { reason: { type: 'string', maxLength: 1000, description: 'Shown to the proposer at its status URL' } },
};

/** The paths of proposals: keyless ones, their status URL, and the operator's queue (ADMIN_TOKEN). */
export const proposalPaths = {
  '/api/calendars/proposals': {
    post: {
      summary: 'Propose a calendar for the catalogue to sync (keyless)',
      description:
        'A Meetup group’s page (read as its iCal export), a Google calendar’s embed or share link (its public iCal ' +
        'feed), or any iCal address (https, http, webcal). A private, loopback, link-local or reserved address is ' +
        'refused before any connection (422). The calendar is read once in the background, as the sync reads it, ' +
        'for a preview: its state, the upcoming events it would list and where each place comes from, and whether ' +
        'the catalogue syncs it already. 202 with the proposal (`state: reading`) and its `statusUrl` as ' +
        '`Location`; the same calendar proposed again answers 200 with its proposal, whatever its state. The ' +
        'operator accepts or rejects it; nothing of who proposed is stored.',
      requestBody: body(ref('ProposeCalendar')),
      responses: {
        202: json('Taken: read it at its status URL', ref('Proposal')),
        200: json('Proposed already: that proposal', ref('Proposal')),
        422: problem('Not a calendar address, a refused address, or a field outside the text policy'),
        ...PROPOSING,
      },
    },
  },
  '/api/keys/requests': {
    post: {
      summary: 'Ask for a host API key (keyless)',
      description:
        'The organisation, its country and what it will push; no contact, no personal data. 202 with the request ' +
        'and its `statusUrl` as `Location`. Once the operator accepts it, the status URL shows the key once ' +
        '(`keyRequest.key`, on the first visit only), then only its id and when it was shown.',
      requestBody: body(ref('RequestKey')),
      responses: {
        202: json('Taken: come back to its status URL', ref('Proposal')),
        422: problem('A field missing or outside the text policy'),
        ...PROPOSING,
      },
    },
  },
  '/api/proposals/{id}': {
    get: {
      summary: 'A proposal’s status: its preview, the decision, a rejection’s reason, an accepted request’s key once',
      description: 'Whoever knows the id (`prp_` and 32 hex digits) can read it; never cached (`no-store`).',
      parameters: [ID_IN_PATH],
      responses: {
        200: json('The proposal', ref('Proposal')),
        404: problem('No such proposal (`proposal-not-found`)'),
      },
    },
  },
  '/api/admin/proposals': {
    get: {
      summary: 'Proposals, oldest first (admin)',
      security: bearer,
      parameters: [
        {
          name: 'state',
          in: 'query',
          schema: { enum: ['reading', 'waiting', 'accepted', 'rejected', 'removed'] },
        },
        { name: 'kind', in: 'query', schema: { enum: ['calendar', 'key'] } },
      ],
      responses: {
        200: json('The queue', listOf('proposals', ref('Proposal'))),
        401: problem('Bad admin token'),
        422: problem('An unknown state, kind or parameter'),
      },
    },
  },
  '/api/admin/proposals/{id}': {
    get: {
      summary: 'A proposal with every decision on it (admin)',
      security: bearer,
      parameters: [ID_IN_PATH],
      responses: {
        200: json('The proposal and its log', ref('ProposalDetail')),
        401: problem('Bad admin token'),
        404: problem('No such proposal (`proposal-not-found`)'),
      },
    },
  },
  '/api/admin/proposals/{id}/accept': {
    post: {
      summary: 'Accept a waiting proposal (admin)',
      description:
        'A calendar joins the synced set: read now (`sync`), then on the schedule after the feeds, listed in ' +
        '/api/sources as source `community`. One the catalogue syncs already is refused (`already-synced`). A key ' +
        'request gets its key, shown once at its status URL.',
      security: bearer,
      parameters: [ID_IN_PATH],
      responses: {
        200: json('Accepted', ref('ProposalDetail')),
        ...DECIDING,
        409: problem('Decided already (`proposal-decided`), or synced already (`already-synced`)'),
      },
    },
  },
  '/api/admin/proposals/{id}/reject': {
    post: {
      summary: 'Reject a proposal not decided yet, with the reason its proposer reads (admin)',
      security: bearer,
      parameters: [ID_IN_PATH],
      requestBody: body({ ...REASON, required: ['reason'] }),
      responses: {
        200: json('Rejected', ref('ProposalDetail')),
        ...DECIDING,
        422: problem('No reason, or one outside the text policy'),
      },
    },
  },
  '/api/admin/proposals/{id}/remove': {
    post: {
      summary: 'Take an accepted proposal back (admin)',
      description:
        'A calendar is no longer synced and its upcoming events are retired (cancelled, their pages stay); a key is ' +
        'revoked. The reason is optional.',
      security: bearer,
      parameters: [ID_IN_PATH],
      requestBody: body(REASON, false),
      responses: {
        200: json('Removed', {
          allOf: [
            ref('ProposalDetail'),
            { type: 'object', required: ['retired'], properties: { retired: { type: 'integer' } } },
          ],
        }),
        ...DECIDING,
        422: problem('A reason outside the text policy'),
      },
    },
  },
};
