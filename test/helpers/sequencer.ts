import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Suites that spend most of their time in processes they spawn (the CLI, the README's install, a soak), slowest
 * first. Started first, they overlap with everything else; left to the default order (previous durations, which a
 * clean clone has none of, else file size), one of them could start last and run on alone.
 */
const SLOW_FIRST = [
  'test/cli.test.ts',
  'test/readme.test.ts',
  'test/importers-cli.test.ts',
  'test/crash.test.ts',
  'test/webhooks-crash.test.ts',
  'test/calendar-links.test.ts',
  'test/soak.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}
