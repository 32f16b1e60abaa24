import { jest } from '@jest/globals';
import { Registry } from 'prom-client';
import type { AiConfig } from '#config';
import { ServiceBusyException } from '#http';
import { SearchAdmission } from './search-admission.js';

/** A search that ends when the test says. */
function pending<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function admission(search: Partial<AiConfig['search']>) {
  const registry = new Registry();
  const gate = new SearchAdmission({ search: { concurrency: 1, queue: 1, timeoutMs: 60_000, maxTerms: 32, maxTypoWords: 5, ...search } } as AiConfig, registry);
  const outcomes = async () =>
    Object.fromEntries((await registry.getSingleMetric('search_requests_total')!.get()).values.map((value) => [value.labels.outcome, value.value]));
  return { gate, outcomes };
}

describe(SearchAdmission.name, () => {
  it('should run up to the limit, queue the next and refuse one more at once with Retry-After', async () => {
    const { gate, outcomes } = admission({ concurrency: 1, queue: 1 });
    const first = pending<string>();
    const running = gate.run(() => first.promise);
    const second = jest.fn(async () => 'second');
    const queued = gate.run(second);

    const refused = gate.run(async () => 'third');
    await expect(refused).rejects.toThrow(ServiceBusyException);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 1, message: expect.stringMatching(/SEARCH_CONCURRENCY, SEARCH_QUEUE/) });
    expect(second).not.toHaveBeenCalled();

    first.resolve('first');
    await expect(running).resolves.toBe('first');
    await expect(queued).resolves.toBe('second');
    expect(await outcomes()).toEqual({ answered: 2, refused: 1 });
  });

  it('should answer 503 when the time budget runs out, and keep the place until the work has ended', async () => {
    const { gate, outcomes } = admission({ concurrency: 1, queue: 0, timeoutMs: 100 });
    const slow = pending<string>();
    await expect(gate.run(() => slow.promise)).rejects.toMatchObject({ message: expect.stringMatching(/did not finish within 0.1 s \(SEARCH_TIMEOUT_MS\)/) });
    // The abandoned search still runs: no other may start beside it.
    await expect(gate.run(async () => 'next')).rejects.toThrow(/at its limit/);
    slow.resolve('late');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
    expect(await outcomes()).toEqual({ timed_out: 1, refused: 1, answered: 1 });
  });

  it('should give up on a search still waiting for its turn when the budget runs out', async () => {
    const { gate, outcomes } = admission({ concurrency: 1, queue: 5, timeoutMs: 100 });
    const first = pending<string>();
    const running = gate.run(() => first.promise).catch((error: Error) => error);
    const waiting = jest.fn(async () => 'never');
    await expect(gate.run(waiting)).rejects.toThrow(/SEARCH_TIMEOUT_MS/);
    first.resolve('done');
    await expect(running).resolves.toBeInstanceOf(ServiceBusyException);
    expect(waiting).not.toHaveBeenCalled();
    expect(await outcomes()).toMatchObject({ timed_out: 2 });
  });

  it('should pass an error of the search on, and free its place', async () => {
    const { gate } = admission({ concurrency: 1, queue: 0 });
    await expect(gate.run(async () => Promise.reject(new Error('database is restarting')))).rejects.toThrow('database is restarting');
    await expect(gate.run(async () => 'after')).resolves.toBe('after');
  });
});
