import type pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { TurnBatchedStream } from '../src/runtime/log-stream.js';
import { runNode } from './helpers/process.js';

/** A destination that records what it is handed, in place of sonic-boom. */
function recordingTarget() {
  const writes: string[] = [];
  const calls: string[] = [];
  const target = {
    write: (chunk: string) => writes.push(chunk) > 0,
    flush: (callback?: () => void) => {
      calls.push('flush');
      callback?.();
    },
    flushSync: () => calls.push('flushSync'),
    end: () => calls.push('end'),
  };
  return { writes, calls, target: target as unknown as ReturnType<typeof pino.destination> };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('turn-batched log stream', () => {
  const streams: TurnBatchedStream[] = [];
  afterEach(() => {
    for (const s of streams.splice(0)) s.end();
  });

  it('hands the lines of one event-loop turn to the destination as one write, in order', async () => {
    const { writes, target } = recordingTarget();
    const stream = new TurnBatchedStream(target);
    streams.push(stream);
    for (let i = 0; i < 100; i++) stream.write(`{"n":${i}}\n`);
    expect(writes).toEqual([]); // nothing yet: still this turn
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').slice(0, -1)).toEqual(Array.from({ length: 100 }, (_, i) => `{"n":${i}}`));
    stream.write('{"n":"later"}\n');
    await nextTurn();
    expect(writes).toEqual([expect.any(String), '{"n":"later"}\n']);
    await nextTurn();
    expect(writes).toHaveLength(2); // an idle turn writes nothing
  });

  it('flush and flushSync hand over what is pending at once', async () => {
    const { writes, calls, target } = recordingTarget();
    const stream = new TurnBatchedStream(target);
    streams.push(stream);
    stream.write('a\n');
    let flushed = false;
    stream.flush(() => {
      flushed = true;
    });
    expect(writes).toEqual(['a\n']);
    expect(flushed).toBe(true);
    stream.write('b\n');
    stream.flushSync();
    expect(writes).toEqual(['a\n', 'b\n']);
    expect(calls).toEqual(['flush', 'flushSync']);
  });

  it('loses no line when the process exits in the same turn it logged them', async () => {
    const script = `
      import { createLogger } from './src/observability/logger.ts';
      import { asyncStdout } from './src/runtime/log-stream.ts';
      const logger = createLogger('info', asyncStdout());
      for (let i = 0; i < 5000; i++) logger.info({ i }, 'line');
      process.exit(0);
    `;
    const { status, stdout, stderr } = await runNode(
      ['--import', 'tsx', '--input-type=module', '-e', script],
      process.env,
      60_000,
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });
});
