/**
 * What fsync costs the embedded engine's writes: the same writes through HTTP with EMBEDDED_FSYNC on and off —
 * `singles` sequential `POST /api/events` and `batches` batches of 1,000 events — on a 1k demo catalogue, medians.
 * `npm run build && npx tsx bench/write-durability.ts [port] [singles] [batches]`.
 */
import { generateDemoEvents } from '../src/demo/generate.js';
import { submissionOf } from './mixed.js';
import { median, percentile } from './percentile.js';
import { freshStore, NOW, prepare, startService } from './service.js';

const port = Number(process.argv[2] ?? 3350);
const singles = Number(process.argv[3] ?? 200);
const batches = Number(process.argv[4] ?? 5);

const round = (ms: number) => Math.round(ms * 10) / 10;

async function timedPost(url: string, key: string, body: object): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

async function measure(fsync: 'on' | 'off') {
  process.env.EMBEDDED_FSYNC = fsync;
  const store = await freshStore();
  const { key } = await prepare(1_000, store);
  const service = await startService(port, store, false);
  const base = `http://127.0.0.1:${port}`;
  try {
    const demo = generateDemoEvents(singles + batches * 1_000, new Date(NOW), { seed: 5, days: 90 });
    const single: number[] = [];
    for (let i = 0; i < singles; i++) {
      single.push(await timedPost(`${base}/api/events`, key, submissionOf(demo[i]!.content, `single-${i}`)));
    }
    const batch: number[] = [];
    for (let b = 0; b < batches; b++) {
      const events = demo
        .slice(singles + b * 1_000, singles + (b + 1) * 1_000)
        .map((d, i) => submissionOf(d.content, `batch-${b}-${i}`));
      batch.push(await timedPost(`${base}/api/events/batch`, key, { events }));
    }
    const sorted = [...single].sort((a, b) => a - b);
    return {
      fsync,
      singleMedianMs: round(median(single)),
      singleP99Ms: round(percentile(sorted, 99)),
      batchMedianMs: round(median(batch)),
    };
  } finally {
    await service.stop();
    await store.drop();
  }
}

const rows = [];
for (const fsync of ['on', 'off'] as const) rows.push(await measure(fsync));
console.table(rows);
