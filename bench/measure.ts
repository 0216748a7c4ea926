/** Load generation for the bench: autocannon against one URL, with realistic prompts that vary per request. */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { percentile } from './percentile.js';
/** Seconds each case runs (BENCH_SECONDS). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

/** Concurrent connections of the closed-loop cases (BENCH_CONNECTIONS). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface CaseRequest {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /**
   * Replace `{q}` in the URL with a different realistic prompt on every request, cycling through more prompts than
   * the service's caches hold: measures the ranking engine and renderers, not the caches. `true`: PROMPTS; or the
   * prompts to cycle through (MANY_CONSTRAINT_PROMPTS).
   */
  distinct?: boolean | readonly string[];
  /** How long to run, when not BENCH_SECONDS. */
  seconds?: number;
  /** Stop when this settles (or after `seconds`, whichever comes first). */
  until?: Promise<unknown>;
}

/** A fixed shuffle (Fisher–Yates, seeded mulberry32): the same order in every run. */
function shuffled(prompts: string[]): string[] {
  let seed = 0x5eed;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = prompts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [prompts[i], prompts[j]] = [prompts[j]!, prompts[i]!];
  }
  return prompts;
}

/**
 * 12,800 distinct prompts: topic word × kind × city (German cities, for the de catalogue) × a modifier, in a fixed
 * shuffled order. A prompt comes round again only after 12,800 others, long after the response cache (2,000 entries)
 * and the engine's result cache (500) have let it go. Shuffled, every case's few thousand prompts are a like sample of
 * the whole: in the order made, a case would get a few topic words of its own, and the words differ in cost (a
 * common word matches more events), so two cases compared as a share (with and without writes) would not ask alike.
 */
export const PROMPTS = (() => {
  const words = ['AI', 'Kubernetes', 'Rust', 'Python', 'Security', 'Data', 'React', 'Startup', 'UX', 'Product'];
  const kinds = ['meetup', 'conference', 'workshop', 'night'];
  const cities = [
    'Berlin',
    'Hamburg',
    'München',
    'Köln',
    'Frankfurt',
    'Stuttgart',
    'Düsseldorf',
    'Leipzig',
    'Dortmund',
    'Essen',
    'Bremen',
    'Dresden',
    'Hannover',
    'Nürnberg',
    'Duisburg',
    'Bochum',
    'Wuppertal',
    'Bielefeld',
    'Bonn',
    'Münster',
    'Karlsruhe',
    'Mannheim',
    'Augsburg',
    'Wiesbaden',
    'Mönchengladbach',
    'Gelsenkirchen',
    'Braunschweig',
    'Aachen',
    'Kiel',
    'Chemnitz',
    'Halle',
    'Magdeburg',
    'Freiburg',
    'Krefeld',
    'Mainz',
    'Lübeck',
    'Erfurt',
    'Oberhausen',
    'Rostock',
    'Kassel',
  ];
  const modifiers = [
    '',
    ' free',
    ' online',
    ' next week',
    ' for beginners',
    ' this weekend',
    ' in person',
    ' for founders',
  ];
  const prompts = words.flatMap((w) =>
    kinds.flatMap((k) => cities.flatMap((c) => modifiers.map((m) => encodeURIComponent(`${w} ${k} ${c}${m}`)))),
  );
  return shuffled(prompts);
})();

/**
 * Prompts shaped as people write them, with four or five constraints each — a subject, a kind, a city, a time phrase
 * and a wish or audience — in English, German and French ("Kubernetes workshop in Köln next month for beginners",
 * "LLM Stammtisch in Leipzig nächste Woche kostenlos"), German cities for the de catalogue, in a fixed shuffled
 * order like PROMPTS. Their cost at 1k, 10k and 100k shows how a prompt grows with the catalogue.
 */
export const MANY_CONSTRAINT_PROMPTS = (() => {
  const subjects = ['Kubernetes', 'LLM', 'Rust', 'Python', 'Security', 'React', 'Data', 'UX', 'KI', 'DevOps'];
  const cities = [
    'Berlin',
    'Hamburg',
    'München',
    'Köln',
    'Frankfurt',
    'Stuttgart',
    'Leipzig',
    'Dresden',
    'Bonn',
    'Kiel',
  ];
  const languages: {
    kinds: string[];
    times: string[];
    wishes: string[];
    say: (s: string, k: string, c: string, t: string, w: string) => string;
  }[] = [
    {
      kinds: ['meetup', 'workshop', 'conference', 'hackathon'],
      times: ['next week', 'next month', 'in February', 'this month'],
      wishes: ['for beginners', 'free', 'online', 'for founders'],
      say: (s, k, c, t, w) => `${s} ${k} in ${c} ${t} ${w}`,
    },
    {
      kinds: ['Meetup', 'Workshop', 'Konferenz', 'Stammtisch'],
      times: ['nächste Woche', 'nächsten Monat', 'im Februar', 'diesen Monat'],
      wishes: ['kostenlos', 'für Einsteiger', 'online', 'für Gründer'],
      say: (s, k, c, t, w) => `${s} ${k} in ${c} ${t} ${w}`,
    },
    {
      kinds: ['meetup', 'atelier', 'conférence', 'hackathon'],
      times: ['la semaine prochaine', 'le mois prochain', 'en février', 'ce mois-ci'],
      wishes: ['gratuit', 'pour débutants', 'en ligne', 'pour fondateurs'],
      say: (s, k, c, t, w) => `${k} ${s} à ${c} ${t} ${w}`,
    },
  ];
  const prompts = languages.flatMap((l) =>
    subjects.flatMap((s) =>
      l.kinds.flatMap((k) =>
        cities.flatMap((c) => l.times.flatMap((t) => l.wishes.map((w) => encodeURIComponent(l.say(s, k, c, t, w))))),
      ),
    ),
  );
  return shuffled(prompts);
})();

/** The next prompt to send: it runs on across cases, so a case never replays the prompts the one before it sent. */
let nextPrompt = 0;

export async function measure(url: string, request: CaseRequest = {}): Promise<Measured> {
  const { distinct, seconds, until, ...options } = request;
  const prompts = distinct === true ? PROMPTS : distinct || PROMPTS;
  const target = new URL(url.replace('{q}', PROMPTS[0]!));
  const template = `${target.pathname}${new URL(url.replace('{q}', 'QUERY')).search}`;
  const run = autocannon({
    url: target.toString(),
    connections: CONNECTIONS,
    duration: seconds ?? SECONDS,
    ...options,
    ...(distinct
      ? {
          requests: [
            {
              setupRequest: (req: object) => ({
                ...req,
                path: template.replace('QUERY', prompts[nextPrompt++ % prompts.length]!),
              }),
            },
          ],
        }
      : {}),
  });
  // autocannon's promise is also its run, which stops on request (its type declares only the promise).
  void until?.finally(() => (run as unknown as { stop(): void }).stop());
  const result = await run;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * Requests at a steady offered rate, whatever the answers take (an open load, as independent users send): one every
 * `1 / perSecond` seconds, each timed from when it was due, so a request held back by a slow one before it counts
 * the wait (no coordinated omission). autocannon's own rate limit sends each second's quota at once, in a burst, and
 * keeps at most one request per connection in flight; latency at a given load is what a latency target is about,
 * while a closed loop at saturation only shows its queue (50 connections / throughput, Little's law).
 */
export async function measureAtRate(
  url: string,
  perSecond: number,
  seconds = SECONDS,
  until?: Promise<unknown>,
): Promise<Measured & { max: number }> {
  let over = false;
  void until?.finally(() => {
    over = true;
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const latencies: number[] = [];
  let errors = 0;
  const get = (path: string, due: number) =>
    new Promise<void>((resolve) => {
      const request = http.get(path, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - due);
          else errors++;
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
    });
  const started = performance.now();
  const total = Math.round(perSecond * seconds);
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total && !over; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    sent.push(get(url.replace('{q}', PROMPTS[nextPrompt++ % PROMPTS.length]!), due));
  }
  await Promise.all(sent);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(percentile(latencies, p));
  return { rps: latencies.length / elapsed, p50: at(50), p99: at(99), max: Math.round(latencies.at(-1) ?? 0), errors };
}
