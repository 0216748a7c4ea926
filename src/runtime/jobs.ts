import { randomBytes } from 'node:crypto';

/** Work a process runs in the background for someone who asked, readable by id while it runs and for a while after. */
export interface Job<T = unknown> {
  id: string;
  /** What it is, as its starter names it (`sync`, `calendar-read`). */
  kind: string;
  startedAt: Date;
  finishedAt: Date | undefined;
  state: 'running' | 'done' | 'failed';
  result: T | undefined;
  error: string | undefined;
  /** What the work has done so far, as it says (see `report` in start). */
  progress: Record<string, unknown>;
  /** Settles when the work ends, whichever way; never rejects. */
  settled: Promise<void>;
}

/** Finished jobs kept for reading their outcome: the oldest are forgotten first. */
const KEPT_FINISHED = 100;

/**
 * The background work of one process: started without waiting for it, stopped together when the process stops. Its
 * state lives here, in the process's context, not in module-level maps.
 */
export class BackgroundJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly abort = new AbortController();

  /** Aborted when the process stops: the work ends its downloads and waits. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Starts `work` now and returns its job at once; `report` merges what the work has done into its progress. */
  start<T>(
    kind: string,
    work: (report: (progress: Record<string, unknown>) => void, signal: AbortSignal) => Promise<T>,
    id = `${kind}_${randomBytes(8).toString('hex')}`,
  ): Job<T> {
    const job: Job<T> = {
      id,
      kind,
      startedAt: new Date(),
      finishedAt: undefined,
      state: 'running',
      result: undefined,
      error: undefined,
      progress: {},
      settled: Promise.resolve(),
    };
    const report = (progress: Record<string, unknown>) => Object.assign(job.progress, progress);
    job.settled = (async () => {
      try {
        job.result = await work(report, this.abort.signal);
        job.state = 'done';
      } catch (error) {
        job.error = (error as Error).message;
        job.state = 'failed';
      } finally {
        job.finishedAt = new Date();
        this.forgetOld();
      }
    })();
    this.jobs.set(id, job as Job);
    return job;
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** The job of this kind under way, if any. */
  running(kind: string, id?: string): Job | undefined {
    for (const job of this.jobs.values())
      if (job.kind === kind && job.state === 'running' && (id === undefined || job.id === id)) return job;
    return undefined;
  }

  /** Aborts every job under way and waits for each to end. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all([...this.jobs.values()].map((job) => job.settled));
  }

  private forgetOld(): void {
    const finished = [...this.jobs.values()].filter((job) => job.state !== 'running');
    for (const job of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED))) this.jobs.delete(job.id);
  }
}
