import { describe, expect, it } from '@jest/globals';
import { FairQueue, FairQueueBusyError, type FairQueueOptions, type Lane, type Release } from './fair-queue.js';

const lane = { queue: 32, queuePerTenant: 8, maxWaitMs: 60_000 };

function fairQueue(options: Partial<FairQueueOptions> = {}): FairQueue {
  return new FairQueue({ slots: 1, slotsPerTenant: 1, interactive: lane, background: { ...lane, slots: 1 }, ...options });
}

/** Records the order in which tasks are given a slot, and keeps their releases by name. */
function recorder(queue: FairQueue) {
  const started: string[] = [];
  const releases = new Map<string, Release>();
  const refused = new Map<string, unknown>();
  const enqueue = (tenant: string, name: string, inLane: Lane = 'interactive') =>
    queue.acquire(tenant, inLane).then(
      (release) => {
        started.push(name);
        releases.set(name, release);
      },
      (error: unknown) => void refused.set(name, error),
    );
  /** Ends a running task and lets the tasks it makes room for start. */
  const finish = async (name: string) => {
    releases.get(name)!();
    await settled();
  };
  return { started, refused, enqueue, finish };
}

/** Lets the promises settled so far run their callbacks. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe(FairQueue.name, () => {
  it('should give the slot to the tenants in turn, not to the first one until its queue is empty', async () => {
    const { started, enqueue, finish } = recorder(fairQueue());
    for (const name of ['a1', 'a2', 'a3', 'a4']) void enqueue('a', name);
    void enqueue('b', 'b1');
    void enqueue('b', 'b2');
    void enqueue('c', 'c1');
    await settled();
    expect(started).toEqual(['a1']);
    for (const name of ['a1', 'a2', 'b1', 'c1', 'a3', 'b2']) await finish(name);
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']);
  });

  it('should hold a tenant to its slots even on an idle pool, so that the next tenant starts at once', async () => {
    const { started, enqueue, finish } = recorder(fairQueue({ slots: 2, slotsPerTenant: 1 }));
    void enqueue('a', 'a1');
    void enqueue('a', 'a2');
    await settled();
    expect(started).toEqual(['a1']);
    void enqueue('b', 'b1');
    await settled();
    expect(started).toEqual(['a1', 'b1']);
    await finish('a1');
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('should let one tenant use every slot when its bound says so, and serve a newcomer at the first slot freed', async () => {
    const { started, enqueue, finish } = recorder(fairQueue({ slots: 2, slotsPerTenant: 2 }));
    for (const name of ['a1', 'a2', 'a3']) void enqueue('a', name);
    await settled();
    void enqueue('b', 'b1');
    await settled();
    expect(started).toEqual(['a1', 'a2']);
    await finish('a2');
    expect(started).toEqual(['a1', 'a2', 'b1']);
  });

  it('should start interactive tasks before background ones, and the background ones after them', async () => {
    const { started, enqueue, finish } = recorder(fairQueue());
    void enqueue('x', 'x1');
    void enqueue('a', 'lint1', 'background');
    void enqueue('a', 'lint2', 'background');
    await settled();
    void enqueue('a', 'report');
    await settled();
    await finish('x1');
    expect(started).toEqual(['x1', 'report']);
    await finish('report');
    await finish('lint1');
    expect(started).toEqual(['x1', 'report', 'lint1', 'lint2']);
  });

  it('should keep a slot for interactive tasks while background ones wait', async () => {
    const { started, enqueue } = recorder(fairQueue({ slots: 2, slotsPerTenant: 2 }));
    void enqueue('a', 'lint1', 'background');
    void enqueue('b', 'lint2', 'background');
    await settled();
    void enqueue('b', 'report');
    await settled();
    expect(started).toEqual(['lint1', 'report']);
  });

  it('should refuse a task that waited longer than its bound as busy, and never start it', async () => {
    const queue = fairQueue({ interactive: { ...lane, maxWaitMs: 50 } });
    const { started, refused, enqueue, finish } = recorder(queue);
    void enqueue('a', 'a1');
    void enqueue('b', 'b1');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(refused.get('b1')).toBeInstanceOf(FairQueueBusyError);
    expect(refused.get('b1')).toMatchObject({ reason: 'wait', retryAfterSeconds: 1 });
    await finish('a1');
    expect(started).toEqual(['a1']);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it("should refuse at once beyond a tenant's queue, with the time its queue is expected to take, and still queue another tenant's", async () => {
    const { started, refused, enqueue } = recorder(fairQueue({ expectedRunMs: 4000, interactive: { ...lane, queuePerTenant: 2 } }));
    for (const name of ['a1', 'a2', 'a3', 'a4']) void enqueue('a', name);
    void enqueue('b', 'b1');
    await settled();
    expect(started).toEqual(['a1']);
    // Two of a's waiting and this one, 4 s each, on the one slot.
    expect(refused.get('a4')).toMatchObject({ reason: 'tenant-queue', retryAfterSeconds: 12 });
    expect(refused.has('b1')).toBe(false);
  });

  it('should refuse at once beyond the queue of all tenants', async () => {
    const { refused, enqueue } = recorder(fairQueue({ expectedRunMs: 1000, interactive: { ...lane, queue: 2 } }));
    for (const [tenant, name] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['b', 'b1'],
      ['c', 'c1'],
    ])
      void enqueue(tenant, name);
    await settled();
    expect([...refused.keys()]).toEqual(['c1']);
    expect(refused.get('c1')).toMatchObject({ reason: 'queue', retryAfterSeconds: 3 });
  });

  it('should refuse the tasks waiting once closed, and let the running ones end', async () => {
    const queue = fairQueue();
    const { started, refused, enqueue, finish } = recorder(queue);
    void enqueue('a', 'a1');
    void enqueue('b', 'b1');
    await settled();
    const stopping = new Error('stopping');
    queue.close(stopping);
    await settled();
    expect(refused.get('b1')).toBe(stopping);
    await expect(queue.acquire('c')).rejects.toBe(stopping);
    await finish('a1');
    expect(started).toEqual(['a1']);
  });
});
