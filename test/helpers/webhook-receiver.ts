import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: { subscription: string; event: Record<string, any> } };
  at: number;
}

/** How a path answers: a status (and headers), or `hang` (never answers). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on loopback: records every POST, verifying each with the `standardwebhooks` library against the
 * secret of its path (a delivery that does not verify is recorded in `unverified`, and fails the tests that look).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const unverified: string[] = [];
  const secrets = new Map<string, string[]>();
  const answers = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      const keys = secrets.get(path) ?? [];
      const verifies = keys.length > 0 && keys.every((secret) => verifiesWith(secret, body, headers));
      if (!verifies) unverified.push(`${path} ${headers['webhook-id']}`);
      received.push({
        path,
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        payload: JSON.parse(body),
        at: Date.now(),
      });
      const queue = answers.get(path);
      const answer = (queue && queue.length > 1 ? queue.shift() : queue?.[0]) ?? { status: 204 };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    unverified,
    /** The secrets a path's deliveries must each verify with (all of them: rotation). */
    expect(path: string, ...keys: string[]) {
      secrets.set(path, keys);
    },
    /** How a path answers, in turn (the last answer repeats). */
    answer(path: string, ...queue: Answer[]) {
      answers.set(path, queue);
    },
    at: (path: string) => received.filter((r) => r.path === path),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export function verifiesWith(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds, else fails after `limitMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  limitMs = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
