import { DateTime } from 'luxon';
import { type EventContent, type EventFormat, plainContentOf } from '../catalogue/event.js';
import { TOPICS } from '../catalogue/taxonomy.js';
import { COUNTRY_INFO, type Country } from '../places/countries.js';
import { allPlaces, type Place } from '../places/gazetteer.js';

/** The `source` of synthetic events: flagged everywhere they appear, never part of the default start. */
export const DEMO_SOURCE = 'demo';

/** A small deterministic PRNG (mulberry32), so a seed always gives the same catalogue. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS = ['Meetup', 'Conference', 'Workshop', 'Hackathon', 'Night', 'Summit', 'Stammtisch', 'Breakfast', 'Day'];
const TOPIC_WORDS: Record<string, string[]> = {
  'ai-ml': ['AI', 'KI', 'LLM', 'Machine Learning', 'GenAI'],
  data: ['Data', 'PostgreSQL', 'Analytics', 'Data Engineering'],
  'cloud-devops': ['Kubernetes', 'DevOps', 'Cloud Native', 'Platform Engineering'],
  security: ['Security', 'AppSec', 'Cyber Security'],
  web: ['JavaScript', 'React', 'Frontend', 'TypeScript'],
  mobile: ['iOS', 'Android', 'Flutter'],
  'programming-languages': ['Rust', 'Python', 'Go', 'Java', 'Kotlin'],
  startups: ['Founders', 'Startup', 'Pitch'],
  product: ['Product', 'Product Management'],
  design: ['UX', 'Design'],
};

export interface DemoEvent {
  externalId: string;
  content: EventContent;
}

/** Cities weighted by population, per country: a realistic spread (most events in the big cities). */
function cityPicker(rand: () => number): (country: Country) => Place {
  const byCountry = new Map<Country, { places: Place[]; cumulative: number[] }>();
  for (const country of ['ch', 'de', 'at'] as Country[]) {
    const places = allPlaces()
      .filter((p) => p.country === country && p.population >= 30_000)
      .sort((a, b) => b.population - a.population)
      .slice(0, 40);
    let sum = 0;
    byCountry.set(country, { places, cumulative: places.map((p) => (sum += Math.sqrt(p.population))) });
  }
  return (country) => {
    const { places, cumulative } = byCountry.get(country)!;
    const x = rand() * cumulative.at(-1)!;
    return places[cumulative.findIndex((c) => c >= x)]!;
  };
}

/**
 * A synthetic catalogue of `count` events over the `days` after `from`, for demos and benchmarks only.
 * Titles, places, topics, formats and prices are spread like a real catalogue; every event is source `demo`.
 */
export function generateDemoEvents(
  count: number,
  from: Date,
  options: { seed?: number; days?: number } = {},
): DemoEvent[] {
  const rand = random(options.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const cityOf = cityPicker(rand);
  const days = options.days ?? 180;
  const topicSlugs = Object.keys(TOPIC_WORDS);
  const events: DemoEvent[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    const country: Country = r < 0.55 ? 'de' : r < 0.8 ? 'ch' : 'at';
    const place = cityOf(country);
    const topic = pick(topicSlugs);
    const second = rand() < 0.3 ? pick(TOPICS).slug : undefined;
    const kind = pick(KINDS);
    const f = rand();
    const format: EventFormat = f < 0.75 ? 'in_person' : f < 0.9 ? 'online' : 'hybrid';
    const zone = COUNTRY_INFO[country].timeZone;
    const start = DateTime.fromJSDate(from, { zone })
      .startOf('day')
      .plus({ days: Math.floor(rand() * days), hours: 8 + Math.floor(rand() * 12) });
    const paid = rand() < 0.35;
    events.push({
      externalId: `demo-${i}`,
      content: {
        country,
        title: `${pick(TOPIC_WORDS[topic]!)} ${kind} ${place.name} #${1 + (i % 97)}`,
        description: `A synthetic demo event about ${topic} in ${place.name}. Not a real event.`,
        start: start.toJSDate(),
        end: start.plus({ hours: kind === 'Conference' || kind === 'Summit' ? 8 : 3 }).toJSDate(),
        allDay: false,
        city: format === 'online' ? null : place.name,
        venue: format === 'online' ? null : `Demo Venue ${1 + (i % 13)}`,
        format,
        topics: second && second !== topic ? [topic, second] : [topic],
        seniority: rand() < 0.2 ? [pick(['student', 'junior', 'senior', 'executive'] as const)] : [],
        regMode: rand() < 0.9 ? 'open' : 'waitlist',
        capacity: rand() < 0.6 ? 20 + Math.floor(rand() * 300) : null,
        priceType: paid ? 'paid' : rand() < 0.8 ? 'free' : 'unknown',
        priceAmount: paid ? (10 + Math.floor(rand() * 90)).toFixed(2) : null,
        currency: COUNTRY_INFO[country].currency,
        organizer: `${place.name} ${pick(TOPIC_WORDS[topic]!)} Community`,
        url: `https://demo.invalid/events/${i}`,
        sourceUrl: `https://demo.invalid/events/${i}`,
        lat: format === 'online' ? null : place.lat,
        lng: format === 'online' ? null : place.lng,
        geoPrecision: format === 'online' ? 'country' : 'city',
        visibility: 'public',
        cfpUrl: null,
        cfpUntil: null,
        ...plainContentOf({}),
      },
    });
  }
  return events;
}
