import pino from 'pino';

/**
 * Standard output for a long-running server: the lines of one turn of the event loop written together, after that
 * turn (see TurnBatchedStream); `flushLogs` before exiting.
 */
export function asyncStdout(): pino.DestinationStream {
  return new TurnBatchedStream(pino.destination({ dest: 1, sync: true }));
}

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * Gathers the lines logged during one turn of the event loop and writes them with one synchronous write(2) once the
 * turn is over. Under load every request logs an access line; sonic-boom's asynchronous mode finished each write
 * before the next line arrived, so every line cost a write(2) plus a thread-pool round trip (~12 µs of CPU per
 * request, measured with `npm run bench`), and its `minLength` batching holds lines back until enough bytes arrive
 * and re-measures its growing buffer on every line. Here a line waits for at most the current turn, nothing is in
 * flight on another thread, and on exit what is gathered is written synchronously, so no line is lost.
 */
export class TurnBatchedStream {
  private lines: string[] = [];
  private scheduled = false;

  constructor(private readonly target: SonicBoom) {
    // Lines still gathered here when the process exits (process.exit, an uncaught exception) are written then.
    process.once('exit', () => this.drain());
  }

  write(line: string): boolean {
    this.lines.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
    return true;
  }

  /** Hands what this turn gathered to the destination. */
  private readonly drain = (): void => {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.target.write(chunk);
  };

  flush(callback?: (error?: Error) => void): void {
    this.drain();
    this.target.flush(callback);
  }

  /** pino calls this after a fatal line, so that line is out before the process goes down. */
  flushSync(): void {
    this.drain();
    this.target.flushSync();
  }

  end(): void {
    this.drain();
    this.target.end();
  }
}
