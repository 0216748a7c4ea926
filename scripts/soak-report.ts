/** What `npm run soak` counts, how it prints it, and when the run fails. */
import type { BurstFigures } from './soak-burst.js';

/** Issue 44: a new client under the crowd is answered within 1 s at p99. */
const NEW_CLIENT_P99_MS = 1_000;
/** The longest a read may wait before it is answered or refused (docs/operations.md, "Overload"): 3 s. */
const LONGEST_WAIT_MS = 3_000;

export interface Figures {
  nodes: number;
  requests: number;
  reads: number;
  writes: number;
  rateLimited: { reads: number; writes: number };
  /** 503s with Retry-After (`overloaded`, `storage-busy`): overload refused early, as intended. */
  refused: { reads: number; writes: number };
  errors: number;
  writesAcknowledged: number;
  writesLost: number;
  duplicates: number;
  /** Keys whose public listing on some node differs from the database's once the nodes have caught up. */
  diverged: number;
  latencyMs: { p50: number; p99: number; max: number };
  rssMb: { start: number; end: number };
  burst: BurstFigures | undefined;
}

/** Nothing counted yet, for a run against `nodes` nodes. */
export function newFigures(nodes: number): Figures {
  return {
    nodes,
    requests: 0,
    reads: 0,
    writes: 0,
    rateLimited: { reads: 0, writes: 0 },
    refused: { reads: 0, writes: 0 },
    errors: 0,
    writesAcknowledged: 0,
    writesLost: 0,
    duplicates: 0,
    diverged: 0,
    latencyMs: { p50: 0, p99: 0, max: 0 },
    rssMb: { start: 0, end: 0 },
    burst: undefined,
  };
}

/** Prints the figures of a run of `elapsed` seconds and the first errors. */
export function printFigures(figures: Figures, errors: readonly string[], elapsed: number): void {
  console.log(
    `requests served:   ${figures.requests} (${figures.reads} reads, ${figures.writes} writes) in ${elapsed.toFixed(1)} s, ${Math.round(figures.requests / elapsed)}/s`,
  );
  console.log(
    `rate limited (429): ${figures.rateLimited.reads + figures.rateLimited.writes} (${figures.rateLimited.reads} reads, ${figures.rateLimited.writes} writes) — intended`,
  );
  console.log(
    `refused (503):     ${figures.refused.reads + figures.refused.writes} (${figures.refused.reads} reads, ${figures.refused.writes} writes) — overload, intended`,
  );
  console.log(`errors:            ${figures.errors}`);
  console.log(
    `writes acknowledged: ${figures.writesAcknowledged}, lost: ${figures.writesLost}, duplicated: ${figures.duplicates}, diverged between nodes: ${figures.diverged}`,
  );
  console.log(
    `latency ms:        p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, max ${figures.latencyMs.max}`,
  );
  const b = figures.burst;
  if (b) {
    console.log(
      `crowd:             ${b.connections} connections — connect ms (new client while it ran) p50 ${b.probeConnectMs.p50}, p99 ${b.probeConnectMs.p99}, max ${b.probeConnectMs.max}; answered ${b.answered}, refused ${b.refused[429]} × 429 and ${b.refused[503]} × 503, failed ${b.failed}; latency ms p50 ${b.latencyMs.p50}, p99 ${b.latencyMs.p99}, max ${b.latencyMs.max} (first answer of a connection: p50 ${b.firstAnswerMs.p50}, max ${b.firstAnswerMs.max})`,
    );
    const n = b.newcomer;
    console.log(
      `new client:        ${n.asked} prompts of its own, a new connection each — answered ${n.answered}, refused ${n.refused}, failed ${n.failed}; ms to the whole answer p50 ${n.ms.p50}, p99 ${n.ms.p99}, max ${n.ms.max} (slowest: ${n.slowest.map((a) => `${a.ms} ms ${a.status}`).join(', ')})`,
    );
    const w = b.memberWaitMs;
    console.log(
      `longest wait:      ${Math.round(Math.max(w.max, n.ms.max))} ms of any read answered or refused (limit ${LONGEST_WAIT_MS}); ${w.asked} reads of members of the crowd timed from an idle thread: p50 ${w.p50}, p99 ${w.p99}, max ${w.max}`,
    );
    console.log(
      `verdict:           new client p99 ${n.ms.p99} ms ${n.ms.p99 < NEW_CLIENT_P99_MS ? '<' : '≥'} ${NEW_CLIENT_P99_MS}; longest wait ${Math.round(Math.max(w.max, n.ms.max))} ms ${Math.max(w.max, n.ms.max) <= LONGEST_WAIT_MS ? '≤' : '>'} ${LONGEST_WAIT_MS}`,
    );
    for (const f of b.failures) console.log(`  ! crowd: ${f}`);
  }
  console.log(`server RSS MB:     ${figures.rssMb.start} → ${figures.rssMb.end}`);
  for (const e of errors) console.log(`  ! ${e}`);
  console.log(`SOAK ${JSON.stringify(figures)}`);
}

/**
 * Whether the run failed: any error, lost, duplicated or diverged write, nothing served, a failed burst request, a
 * connect of a second or more, or (with `fairness` 'check') a new client's p99 of a second or more or a read that
 * waited longer than 3 s.
 */
export function failed(figures: Figures, fairness: string): boolean {
  const b = figures.burst;
  return (
    figures.errors > 0 ||
    figures.writesLost > 0 ||
    figures.duplicates > 0 ||
    figures.diverged > 0 ||
    figures.requests === 0 ||
    (b !== undefined &&
      (b.failed > 0 ||
        b.probeConnectMs.max >= 1000 ||
        (fairness === 'check' &&
          (b.newcomer.ms.p99 >= NEW_CLIENT_P99_MS ||
            Math.max(b.memberWaitMs.max, b.newcomer.ms.max) > LONGEST_WAIT_MS))))
  );
}
