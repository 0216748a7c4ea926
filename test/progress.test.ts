import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressDisplay } from '../src/cli/progress.js';

/** A stream that says it is a terminal (or not), keeping what is written to it. */
function terminal(isTTY: boolean) {
  let written = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number };
  stream.isTTY = isTTY;
  stream.columns = 120;
  return { stream: stream as unknown as NodeJS.WriteStream, written: () => written };
}

const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
const plain = (text: string) => text.replace(ESCAPE, '');

describe('import and sync progress', () => {
  it('on a terminal: files read, then records read and stored, with the rate and the time left', async () => {
    const tty = terminal(true);
    const progress = progressDisplay(tty.stream);
    progress.update('confs-tech', { phase: 'reading', done: 1, total: 4 });
    await new Promise((r) => setTimeout(r, 120)); // past the bar's redraw throttle
    progress.update('confs-tech', { phase: 'reading', done: 4, total: 4 });
    progress.update('confs-tech', { phase: 'storing', read: 200, stored: 0 });
    await new Promise((r) => setTimeout(r, 120));
    progress.update('confs-tech', { phase: 'storing', read: 200, stored: 50 });
    progress.stop();
    const out = plain(tty.written());
    expect(out).toMatch(/confs-tech .*1\/4 files read · \d+\/s · \S+ left/);
    expect(out).toMatch(/confs-tech .*200 records read, 50 stored · \d+\/s · \S+ left/);
  });

  it('quiet when not a terminal: scripts and logs see only the report', () => {
    const pipe = terminal(false);
    const progress = progressDisplay(pipe.stream);
    progress.update('x', { phase: 'storing', read: 10, stored: 5 });
    progress.stop();
    expect(pipe.written()).toBe('');
  });
});
