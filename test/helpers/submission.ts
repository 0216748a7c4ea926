/** A valid submission of one event to POST /api/events, with `overrides` replacing or adding fields. */
export const submission = (overrides: Record<string, unknown> = {}) => ({
  title: 'KI-Meetup Zürich',
  startAt: '2026-12-03T18:30:00+01:00',
  endAt: '2026-12-03T21:00:00+01:00',
  city: 'Zürich',
  venue: 'Impact Hub',
  format: 'in_person',
  topics: ['ai-ml'],
  regMode: 'open',
  capacity: 80,
  price: 'free',
  url: 'https://example.org/ki-meetup',
  visibility: 'public',
  externalId: 'ki-001',
  ...overrides,
});
