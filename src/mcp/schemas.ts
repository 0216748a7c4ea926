import { z } from 'zod';
import { COUNTRIES } from '../catalogue/countries.js';
import { FORMATS, SENIORITIES, TOPIC_SLUGS } from '../catalogue/taxonomy.js';

/** The read shape of an event (spec §2.1) as a tool output schema. */
export const eventOutput = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string().describe('ISO 8601 UTC'),
  format: z.string(),
  rsvp: z.string(),
  city: z.string().optional(),
  venue: z.string().optional(),
  geo: z.object({ lat: z.number(), lng: z.number(), precision: z.string() }).nullable(),
  price: z.object({ type: z.string(), amount: z.number().nullable(), currency: z.string() }),
  topics: z.array(z.string()),
  seniority: z.array(z.string()),
  organizer: z.string(),
  source: z.string(),
  sourceUrl: z.string(),
  url: z.string(),
  matchReasons: z.array(z.string()),
});

/** Filters shared by the search tools: the query grammar of /api/events. */
export const filterInput = {
  country: z.enum(COUNTRIES).optional().describe('ch (default), de or at'),
  city: z.string().max(120).optional().describe('City in any spelling (Zürich, Zurich, Genf, Munich…); a hard filter'),
  near: z.boolean().optional().describe('With city: widen to about 45 km around it'),
  topic: z
    .array(z.enum(TOPIC_SLUGS as [string, ...string[]]))
    .optional()
    .describe('Topic slugs (any of them)'),
  seniority: z.array(z.enum(SENIORITIES)).optional(),
  format: z.enum(FORMATS).optional(),
  org: z.string().max(200).optional().describe('Exact organizer name'),
  who: z.enum(['founders']).optional().describe('Rooms where founders and executives actually go'),
  limit: z.number().int().min(1).max(100).optional().describe('1–100, default 50'),
};

export const dateRangeInput = {
  from: z.string().date().optional().describe('Earliest start date, YYYY-MM-DD (local)'),
  to: z.string().date().optional().describe('Latest start date, YYYY-MM-DD (local)'),
};

export const listOutput = {
  understood: z.string(),
  total: z.number().int(),
  count: z.number().int(),
  calendar: z.string(),
  events: z.array(eventOutput),
};

export const subscriptionOutput = {
  https: z.string(),
  webcal: z.string(),
  markdown: z.string(),
  json: z.string(),
  howTo: z.string(),
};

export const registrationOutput = {
  eventId: z.string(),
  eventTitle: z.string(),
  eventUrl: z.string(),
  status: z.enum(['registered', 'waitlisted', 'requested', 'withdrawn']),
  waitlistPlace: z.number().int().nullable(),
  changed: z.boolean(),
  registeredAt: z.string(),
  updatedAt: z.string(),
  counts: z.object({ registered: z.number().int(), waitlisted: z.number().int(), requested: z.number().int() }),
};
