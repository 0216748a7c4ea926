/**
 * The webhooks case: a batch of 1,000 events matching a subscription, delivered to a fast receiver on loopback while
 * distinct prompts are read — how long until every message arrived, and what the reads keep meanwhile.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Measured, measure } from './measure.js';

const BATCH = 1_000;

/** Subscribes a receiver, measures reads, sends the batch and measures reads until every message arrived. */
export async function webhookBurst(base: string, key: string, url: string, from: string): Promise<string[]> {
  const ids = new Set<string>();
  let all!: () => void;
  const delivered = new Promise<void>((resolve) => {
    all = resolve;
  });
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.add(String(req.headers['webhook-id']));
      if (ids.size >= BATCH) all();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  try {
    const sub = await fetch(`${base}/api/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: target, country: 'de', topic: 'quantum', city: 'Hamburg' }),
    });
    if (sub.status !== 201) throw new Error(`POST /api/webhooks answered ${sub.status}: ${await sub.text()}`);
    const quiet = await measure(url, { distinct: true });
    const start = new Date(new Date(from).getTime() + 30 * 86_400_000);
    const events = Array.from({ length: BATCH }, (_, i) => ({
      externalId: `hook-${i}`,
      title: `Quantum Hamburg ${i}`,
      startAt: new Date(start.getTime() + i * 3_600_000).toISOString(),
      city: 'Hamburg',
      topics: ['quantum'],
    }));
    const started = performance.now();
    const sent = fetch(`${base}/api/events/batch`, { method: 'POST', headers, body: JSON.stringify({ events }) });
    const within = Promise.race([delivered, new Promise((r) => setTimeout(r, 60_000))]);
    const during: Measured = await measure(url, { distinct: true, seconds: 60, until: within });
    await within;
    const seconds = (performance.now() - started) / 1000;
    const batch = await sent;
    if (batch.status !== 200) throw new Error(`the batch answered ${batch.status}: ${await batch.text()}`);
    const share = during.rps / quiet.rps;
    console.log(
      `\n${BATCH} matching writes in a batch: ${ids.size} messages delivered in ${seconds.toFixed(1)} s; distinct prompts ${Math.round(during.rps)} req/s meanwhile, ${Math.round(quiet.rps)} before (${(share * 100).toFixed(0)} %)`,
    );
    const ok = ids.size >= BATCH && seconds <= 60 && share >= 0.9 && during.errors === 0;
    return [
      `Target ${ok ? 'met' : 'NOT met'}: ${BATCH} matching writes delivered within a minute, reads slowed by at most 10 % — ${ids.size} in ${seconds.toFixed(1)} s, reads at ${(share * 100).toFixed(0)} %`,
    ];
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}
