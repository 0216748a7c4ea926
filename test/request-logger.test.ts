import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLoggerFactory } from '../src/http/request-logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

describe('lazy request logger', () => {
  it('makes the child only when something is logged, with the request bindings', () => {
    const { lines, logger } = capture();
    let children = 0;
    const counting = Object.assign(Object.create(logger), {
      child: (...args: Parameters<typeof logger.child>) => {
        children++;
        return logger.child(...args);
      },
    });
    const requestLog = lazyRequestLoggerFactory(counting, { reqId: 'req-1' }, {});
    expect(children).toBe(0);
    requestLog.debug('below the level'); // still needs the child to know its level
    requestLog.warn({ code: 'x' }, 'storage unavailable');
    requestLog.error(new Error('boom'));
    expect(children).toBe(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-1', 'storage unavailable'],
      ['req-1', 'boom'],
    ]);
    expect(lines[0]!.code).toBe('x');
  });

  it('keeps level and child working like the logger it stands in for', () => {
    const { lines, logger } = capture();
    const requestLog = lazyRequestLoggerFactory(logger, { reqId: 'req-2' }, {});
    expect(requestLog.level).toBe('info');
    requestLog.level = 'debug';
    requestLog.debug('now visible');
    requestLog.child({ part: 'mcp' }).info('nested');
    expect(lines.map((l) => [l.reqId, l.part, l.msg])).toEqual([
      ['req-2', undefined, 'now visible'],
      ['req-2', 'mcp', 'nested'],
    ]);
  });
});
