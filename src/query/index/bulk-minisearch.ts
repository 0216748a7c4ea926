/** Nothing to give back any more: the full-text index keeps no shared scratch. Goes once src/cli stops calling it. */
export function releaseScoringScratch(): void {}
