import type { RunReport } from '../control/protocol.js';

/** One run's counts on a line, then each skipped record on its own. */
export function printReport(label: string, report: RunReport, extra = ''): void {
  const { created, updated, unchanged, cancelled, restored, skipped, elsewhere } = report;
  console.log(
    `${label}: created ${created}, updated ${updated}, unchanged ${unchanged}, cancelled ${cancelled}, ` +
      `restored ${restored}, skipped ${skipped.length}` +
      (elsewhere > 0 ? `, outside ch/de/at ${elsewhere}` : '') +
      extra,
  );
  for (const s of skipped) console.log(`  skipped ${s.record}: ${s.message}`);
}
