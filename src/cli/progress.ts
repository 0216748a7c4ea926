import cliProgress from 'cli-progress';
import type { SyncProgress } from '../use-cases/sync-feeds.js';

export interface ProgressDisplay {
  /** Shows how far the run of `label` (a source) has come. */
  update(label: string, progress: SyncProgress): void;
  /** Clears the bar (before the report is printed). */
  stop(): void;
}

const QUIET: ProgressDisplay = { update() {}, stop() {} };

/**
 * A progress bar for `import` and `sync` on a terminal: files read, then records read and stored, the rate and the
 * time left. Nothing at all when the stream is not a terminal (a pipe, a log file, CI), so scripts see only the
 * report on stdout.
 */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  if (!stream.isTTY) return QUIET;
  let bar: cliProgress.SingleBar | undefined;
  let current: string | undefined;
  let started = 0;
  const stop = () => {
    bar?.stop();
    bar = undefined;
    current = undefined;
  };
  return {
    update(label, p) {
      const total = p.phase === 'reading' ? p.total : p.read;
      const value = p.phase === 'reading' ? p.done : p.stored;
      const what = p.phase === 'reading' ? `${value}/${total} files read` : `${p.read} records read, ${value} stored`;
      const key = `${label}\n${p.phase}`;
      if (key !== current) {
        stop();
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: '{label} {bar} {what} · {rate}/s · {eta_formatted} left',
            clearOnComplete: true,
            hideCursor: true,
            barsize: 24,
            etaBuffer: 100,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(Math.max(total, 1), value, { label, what, rate: 0 });
        current = key;
        started = performance.now();
      }
      const seconds = (performance.now() - started) / 1000;
      bar!.update(value, { what, rate: seconds > 0.05 ? Math.round(value / seconds) : 0 });
    },
    stop,
  };
}
