/** Load generation for the bench: autocannon against one URL, with realistic prompts that vary per request. */
import autocannon from 'autocannon';
/** Seconds each case runs (BENCH_SECONDS). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

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
   * the service's caches hold: measures the ranking engine and renderers, not the caches.
   */
  distinct?: boolean;
  /** How long to run, when not BENCH_SECONDS. */
  seconds?: number;
  /** Stop when this settles (or after `seconds`, whichever comes first). */
  until?: Promise<unknown>;
}

/**
 * 12,800 distinct prompts: topic word × kind × city (German cities, for the de catalogue) × a modifier. A prompt
 * comes round again only after 12,800 others, long after the response cache (2,000 entries) and the engine's result
 * cache (500) have let it go.
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
  return words.flatMap((w) =>
    kinds.flatMap((k) => cities.flatMap((c) => modifiers.map((m) => encodeURIComponent(`${w} ${k} ${c}${m}`)))),
  );
})();

/** The next prompt to send: it runs on across cases, so a case never replays the prompts the one before it sent. */
let nextPrompt = 0;

export async function measure(url: string, request: CaseRequest = {}): Promise<Measured> {
  const { distinct, seconds, until, ...options } = request;
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
                path: template.replace('QUERY', PROMPTS[nextPrompt++ % PROMPTS.length]!),
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
