/**
 * The webhooks case: a batch of 1,000 events matching a subscription, delivered to a fast receiver on loopback while
 * distinct prompts are read — how long until every message arrived, and what the reads keep beside the same batch
 * written without webhooks.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Measured, measure } from './measure.js';

const BATCH = 1_000;
/** The reads measured from each batch on: delivery is to be done within it. */
const WINDOW_SECONDS = 10;

/** Subscribes a receiver, measures reads, sends the batch and measures reads until every message arrived. */
export async function webhookBurst(base: string, key: string, url: string, from: string): Promise<string[]> {
  const ids = new Set<string>();
  let seconds = Number.POSITIVE_INFINITY;
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
    const { id } = (await sub.json()) as { id: string };
    const batchOf = (prefix: string) => {
      const start = new Date(from).getTime() + 30 * 86_400_000;
      const events = Array.from({ length: BATCH }, (_, i) => ({
        externalId: `${prefix}-${i}`,
        title: `Quantum Hamburg ${prefix} ${i}`,
        startAt: new Date(start + i * 3_600_000).toISOString(),
        city: 'Hamburg',
        topics: ['quantum'],
      }));
      return fetch(`${base}/api/events/batch`, { method: 'POST', headers, body: JSON.stringify({ events }) });
    };
    // The same batch and window with the subscription paused (nothing is queued then): what the writes cost alone.
    const auth = { authorization: headers.authorization };
    const paused = await fetch(`${base}/api/webhooks/${id}/pause`, { method: 'POST', headers: auth });
    if (paused.status !== 200) throw new Error(`pause answered ${paused.status}: ${await paused.text()}`);
    const plainBatch = batchOf('plain');
    const quiet = await measure(url, { distinct: true, seconds: WINDOW_SECONDS });
    if ((await plainBatch).status !== 200) throw new Error('the batch without webhooks failed');
    const resumed = await fetch(`${base}/api/webhooks/${id}/resume`, { method: 'POST', headers: auth });
    if (resumed.status !== 200) throw new Error(`resume answered ${resumed.status}: ${await resumed.text()}`);
    if (ids.size > 0) throw new Error(`${ids.size} messages for writes made while paused`);
    const started = performance.now();
    const sent = batchOf('hook');
    delivered.then(() => {
      seconds = (performance.now() - started) / 1000;
    });
    const during: Measured = await measure(url, { distinct: true, seconds: WINDOW_SECONDS });
    await Promise.race([delivered, new Promise((r) => setTimeout(r, 60_000 - WINDOW_SECONDS * 1000))]);
    const batch = await sent;
    if (batch.status !== 200) throw new Error(`the batch answered ${batch.status}: ${await batch.text()}`);
    const share = during.rps / quiet.rps;
    console.log(
      `\n${BATCH} matching writes in a batch: ${ids.size} messages delivered in ${seconds.toFixed(1)} s; distinct prompts ${Math.round(during.rps)} req/s over the ${WINDOW_SECONDS} s from the batch, ${Math.round(quiet.rps)} for the same batch without webhooks (${(share * 100).toFixed(0)} %)`,
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
