/**
 * What a test file has started and not stopped yet. A hook that times out leaves its start
 * running: what that start makes later must not outlive the file (nor exit the process when its
 * modules are gone). `stopLeftovers` runs after each file's last hook (jest.config.js).
 */
const starts = new Set<Promise<unknown>>();
const stops: (() => Promise<void>)[] = [];

/** Keeps `start` until it settles, so that `stopLeftovers` waits for it. */
export function starting<T>(start: Promise<T>): Promise<T> {
  starts.add(start);
  const forget = () => void starts.delete(start);
  start.then(forget, forget);
  return start;
}

/** Registers `stop` until it has run; returns it to call instead (more calls wait for the first). */
export function stoppable(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const once = () => {
    const index = stops.indexOf(once);
    if (index >= 0) stops.splice(index, 1);
    return (stopping ??= stop());
  };
  stops.push(once);
  return once;
}

/** Waits for the starts under way, then stops what is still running, the latest first. */
export async function stopLeftovers(): Promise<void> {
  await Promise.allSettled(starts);
  const errors: unknown[] = [];
  while (stops.length > 0) await stops.at(-1)!().catch((error: unknown) => errors.push(error));
  if (errors.length > 0) throw new AggregateError(errors, 'Some of what the tests started did not stop');
}
