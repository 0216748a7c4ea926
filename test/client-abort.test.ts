import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type RunningService, startService } from '../src/service.js';
import { createDataDir } from './helpers/engines.js';
import { freePort } from './helpers/server.js';

/**
 * A client that closes its connection halfway through its upload is logged as what it is — a client aborting, at
 * info level — and never as the database being unavailable: anyone can do it, as often as they like.
 */
interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('a client dropping its upload mid-body', () => {
  let service: RunningService;
  let dir: string;
  let port: number;
  let key: string;
  const logs: LogLine[] = [];

  beforeAll(async () => {
    dir = createDataDir('tev-abort-');
    port = await freePort();
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: '0',
      SYNC_INTERVAL_MINUTES: '0',
      RATE_LIMIT_READS_PER_MINUTE: '0',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      LOG_LEVEL: 'info',
    });
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line) as LogLine) });
    service = await startService(config, logger);
    ({ key } = await service.ctx.keys.create('Aborting Host', 'ch'));
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the headers and half of a declared body, then closes the connection the way `close` says. */
  const halfUpload = (path: string, close: 'end' | 'reset') =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ events: Array.from({ length: 200 }, (_, i) => ({ externalId: `e-${i}` })) });
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
        );
        socket.write(body.slice(0, body.length >> 1), () => {
          // Give the server the time to start reading the body, as a client stalling mid-upload would.
          setTimeout(() => {
            if (close === 'reset') socket.resetAndDestroy();
            else socket.end();
            resolve();
          }, 100);
        });
      });
      socket.on('error', reject);
    });

  const waitFor = async (seen: () => boolean) => {
    for (let i = 0; i < 100 && !seen(); i++) await new Promise((r) => setTimeout(r, 50));
  };

  it.each([
    ['/api/events/batch', 'end'],
    ['/api/events', 'reset'],
  ] as const)('POST %s closed with %s: "client aborted upload" at info, no storage warning', async (path, close) => {
    const before = logs.length;
    await halfUpload(path, close);
    const mine = () => logs.slice(before);
    await waitFor(() => mine().some((l) => l.msg === 'client aborted upload'));
    const aborted = mine().filter((l) => l.msg === 'client aborted upload');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]!.level).toBe(30);
    expect(mine().filter((l) => l.msg === 'storage unavailable' || l.level >= 40)).toEqual([]);
  });

  it('stored nothing of the half bodies, and the service answers as before', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const mine = await fetch(`http://127.0.0.1:${port}/api/events?mine=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { events: unknown[] }).events).toEqual([]);
  });
});
