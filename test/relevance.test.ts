import { describe, expect, it } from 'vitest';
import { EXTRACTION_THRESHOLD, evaluate, formatReport, NDCG_THRESHOLD, ndcgAtK } from '../scripts/eval-relevance.js';

describe('nDCG@10', () => {
  it('is 1 for the ideal order, lower for a worse one, and scores an empty judgement by silence', () => {
    expect(ndcgAtK([2, 1, 0], [2, 1])).toBe(1);
    expect(ndcgAtK([1, 2], [2, 1])).toBeLessThan(1);
    expect(ndcgAtK([0, 0, 2], [2])).toBeCloseTo(0.5, 5);
    expect(ndcgAtK([], [])).toBe(1);
    expect(ndcgAtK([0], [])).toBe(0);
  });
});

describe('relevance set (npm run eval)', () => {
  it('meets the thresholds over the labelled queries', { timeout: 180_000 }, async () => {
    const report = await evaluate();
    const summary = formatReport(report);
    expect(report.queries.length).toBeGreaterThanOrEqual(60);
    const germanOrFrench = report.queries.filter((q) => q.lang === 'de' || q.lang === 'fr').length;
    expect(germanOrFrench * 3).toBeGreaterThanOrEqual(report.queries.length);
    expect(report.meanNdcg, summary).toBeGreaterThanOrEqual(NDCG_THRESHOLD);
    expect(report.extractionShare, summary).toBeGreaterThanOrEqual(EXTRACTION_THRESHOLD);
  });
});
