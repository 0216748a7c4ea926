import type { TopicSlug } from '../../catalogue/taxonomy.js';
import type { IndexedEvent } from '../index/indexed-event.js';

/**
 * Fields whose people and talks overlap: an event of one is a fair suggestion for the other when nothing matches
 * ("data Basel" → an AI forum in Basel), though less so than a general tech event. Symmetric; a field absent has
 * no neighbour.
 */
const NEIGHBOURS: Partial<Record<TopicSlug, readonly TopicSlug[]>> = {
  'ai-ml': ['data'],
  data: ['ai-ml'],
  'cloud-devops': ['architecture'],
  architecture: ['cloud-devops'],
  web: ['mobile', 'design'],
  mobile: ['web'],
  design: ['web', 'product'],
  product: ['design', 'leadership'],
  leadership: ['product', 'career'],
  career: ['leadership'],
  fintech: ['blockchain'],
  blockchain: ['fintech'],
  healthtech: ['biotech'],
  biotech: ['healthtech'],
  'hardware-iot': ['robotics'],
  robotics: ['hardware-iot'],
};

/** The fields neighbouring `slug`. */
export const neighboursOf = (slug: TopicSlug): readonly TopicSlug[] => NEIGHBOURS[slug] ?? [];

/** The neighbouring field of `slug` the event carries, if any. */
export function neighbourCarried(e: IndexedEvent, slug: TopicSlug): TopicSlug | undefined {
  return neighboursOf(slug).find((n) => e.event.topics.includes(n));
}
