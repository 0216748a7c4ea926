import { z } from 'zod';
import { COMMUNITY_SOURCE } from '../catalogue/event.js';
import { PROPOSAL_KINDS, PROPOSAL_STATES, type ProposalKind, type ProposalState } from '../catalogue/proposal.js';
import { requiredText, urlField } from '../catalogue/submission.js';
import type { Feed } from '../importers/feeds.js';
import { COUNTRIES } from '../places/countries.js';
import { firstReadSchema } from './calendars.js';

/** What proposals are and how they are shown: the shapes the routes, the CLI, the pages and OpenAPI share. */

export { COMMUNITY_SOURCE, PROPOSAL_KINDS, PROPOSAL_STATES, type ProposalKind, type ProposalState };

/** Who decided: the command line, the admin API, the admin page. */
export const MODERATION_ACTORS = ['cli', 'admin-api', 'admin-page'] as const;
export type ModerationActor = (typeof MODERATION_ACTORS)[number];

/** Where a previewed event's place comes from, as the sync would place it. */
export const PLACE_ORIGINS = ['event', 'description', 'calendar', 'online', 'unknown'] as const;

const countryField = z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` });

export const proposeCalendarSchema = z.strictObject({
  url: urlField().meta({
    description:
      'The calendar: a Meetup group’s page, a Google calendar’s embed or share link, a Luma calendar’s or any ' +
      'other iCal address (https, http or webcal).',
    examples: ['https://www.meetup.com/zurich-ai-meetup/'],
  }),
  city: requiredText(100)
    .trim()
    .optional()
    .meta({ description: 'Where its events are when they do not say (a city of `country`).', examples: ['Zürich'] }),
  country: countryField.optional().describe('The country of its events (default ch).'),
  name: requiredText(200)
    .trim()
    .optional()
    .meta({ description: 'The community’s name: its events’ organizer.', examples: ['Zurich AI Meetup'] }),
});

export const requestKeySchema = z.strictObject({
  organisation: requiredText(200)
    .trim()
    .meta({ description: 'The organisation that will push events: its name is their organizer.' }),
  country: countryField.describe('The country of its events.'),
  plans: requiredText(2000)
    .trim()
    .meta({ description: 'What it will push: which events, how often, from what system.' }),
  website: z
    .string()
    .trim()
    .max(2000)
    .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'must be an http(s) URL')
    .optional()
    .describe('Where the operator can see who it is.'),
});

const previewEventSchema = z.object({
  title: z.string(),
  start: z.string().describe('ISO 8601 instant, or a date YYYY-MM-DD for an all-day event'),
  end: z.string().nullable(),
  place: z.string().nullable().describe('The place as the event would be listed (venue, city), or null'),
  placeFrom: z.enum(PLACE_ORIGINS).describe('Where the place comes from'),
  online: z.boolean(),
  url: z.string().nullable().describe('The event’s own link'),
});

export const previewSchema = z.object({
  readAt: z.string(),
  state: z
    .enum(['ok', 'empty', 'gone', 'failing', 'not iCal'])
    .describe('What the read found, as `GET /api/admin/calendars/check` says it'),
  error: z.string().nullable(),
  events: z.number().int().describe('Upcoming events it shows'),
  cut: z.string().nullable().describe('Set when the read went over a limit and kept its first events'),
  places: z.object({
    event: z.number().int(),
    description: z.number().int(),
    calendar: z.number().int(),
    online: z.number().int(),
    unknown: z.number().int(),
  }),
  upcoming: z.array(previewEventSchema).describe('The first upcoming events (at most 20)'),
  alreadySynced: z
    .object({ source: z.string(), calendar: z.string() })
    .nullable()
    .describe('Set when the catalogue syncs this calendar already: the source and the calendar’s id there'),
});
export type Preview = z.output<typeof previewSchema>;

export const proposalViewSchema = z.object({
  id: z.string().describe('`prp_` and 32 hex digits: whoever knows it can see the proposal'),
  kind: z.enum(PROPOSAL_KINDS),
  state: z.enum(PROPOSAL_STATES),
  createdAt: z.string(),
  decidedAt: z.string().nullable().describe('When it was accepted, rejected or removed'),
  reason: z.string().nullable().describe('Why it was rejected or removed'),
  statusUrl: z.string().describe('Where to see it: `GET` answers this view'),
  calendar: z
    .object({
      given: z.string().describe('The address as proposed'),
      url: z.string().describe('The feed read (a group page becomes its iCal export)'),
      platform: z.enum(['meetup', 'luma', 'google', 'bevy', 'ical']),
      format: z.string().describe('The importer that reads it'),
      name: z.string().nullable(),
      city: z.string().nullable(),
      country: z.enum(COUNTRIES),
      preview: previewSchema.nullable().describe('Null while it is being read'),
    })
    .optional()
    .describe('A calendar proposal'),
  keyRequest: z
    .object({
      organisation: z.string(),
      country: z.enum(COUNTRIES),
      plans: z.string(),
      website: z.string().nullable(),
      keyId: z.string().nullable().describe('The key issued on acceptance'),
      key: z.string().optional().describe('The key itself, on the first visit after acceptance only'),
      keyShownAt: z.string().nullable().describe('When the key was shown; it is never shown again'),
    })
    .optional()
    .describe('A request for a host key'),
});
export type ProposalView = z.output<typeof proposalViewSchema>;

/** The operator's view: the public one with its audit log. */
export const proposalDetailSchema = proposalViewSchema.extend({
  sync: firstReadSchema
    .optional()
    .describe(
      'On acceptance of a calendar: what its first read imported, or why it failed (it is read again on the schedule)',
    ),
  log: z.array(
    z.object({
      at: z.string(),
      actor: z.enum(MODERATION_ACTORS),
      action: z.enum(['accept', 'reject', 'remove']),
      reason: z.string().nullable(),
    }),
  ),
});
export type ProposalDetail = z.output<typeof proposalDetailSchema>;

/** Who proposes: their address, for the per-address limit only (kept in memory, never stored). */
export interface ProposalClient {
  address: string;
}

/** What creating a proposal answers: its view, and whether it is new (202) or the same URL's earlier one (200). */
export interface Proposed {
  proposal: ProposalView;
  created: boolean;
}

export interface ProposalFilter {
  state?: ProposalState;
  kind?: ProposalKind;
}

/** The calendars communities proposed and the operator accepted, as the schedule and `/api/sources` name them. */
export const COMMUNITY_CALENDARS = {
  source: COMMUNITY_SOURCE,
  format: 'ical',
  url: 'calendars proposed by their communities (POST /api/calendars/proposals)',
} as const satisfies Feed;
