/** Work that runs one at a time, in the order asked, whatever else overlaps. */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = last.then(work, work);
    last = run.catch(() => {});
    return run;
  };
}

/** Runs `work` for each index below `count`, `width` at a time, in order; none starts once `stopped()`. */
export async function inParallel(
  count: number,
  width: number,
  work: (i: number) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !stopped()) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}
