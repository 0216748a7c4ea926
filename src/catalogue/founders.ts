import { classifyAudience } from './classify.js';
import type { CatalogueEvent } from './event.js';
import { foldText } from './lexicon.js';

/**
 * Organizers and series known for rooms where founders, executives and investors go (folded substrings).
 * Kept short and specific on purpose: it widens `who=founders` beyond what titles say, never replaces it.
 */
const FOUNDER_ORGANIZERS = [
  'startup grind',
  'founder institute',
  'founders',
  'techstars',
  'venturelab',
  'venture lab',
  'impact hub',
  'start summit',
  'startup',
  'start-up',
  'kickstart',
  'cto craft',
  'bits & pretzels',
  'bits and pretzels',
  'business angels',
  'swiss venture club',
  'seedcamp',
  'tech open air',
  'pioneers',
  'slush',
];

/**
 * `who=founders` — rooms where founders and executives actually go. An event qualifies when any of these hold:
 * 1. its audience includes `executive` seniority (CTO/CEO/leadership events);
 * 2. its topics include `startups` (founding, funding, pitching);
 * 3. its title or description speaks to founders or investors (Gründer, fondateurs, VC, business angels, …);
 * 4. its organizer or title names a series known for such audiences (FOUNDER_ORGANIZERS).
 * Returns 2 for a strong fit (1–4 from structured data or the title), 1 when only the description says so, else 0.
 */
export function founderFit(
  event: Pick<CatalogueEvent, 'seniority' | 'topics' | 'title' | 'description' | 'organizer'>,
): 0 | 1 | 2 {
  if (event.seniority.includes('executive') || event.topics.includes('startups')) return 2;
  if (classifyAudience(event.title).length > 0) return 2;
  const haystack = foldText(`${event.organizer} ${event.title}`);
  if (FOUNDER_ORGANIZERS.some((name) => haystack.includes(name))) return 2;
  // Only the description speaks to founders: it qualifies, but ranks below events made for them.
  return event.description && classifyAudience('', event.description).length > 0 ? 1 : 0;
}
