import type { GatewayConfig } from '#config';
import { ServiceBusyException } from '#http';
import { ImportSlots, TooManyImportsException } from './import-slots.js';

describe(ImportSlots.name, () => {
  const slotsOf = (maxInFlight: number, maxInFlightPerCaller: number) => new ImportSlots({ import: { maxInFlight, maxInFlightPerCaller } } as GatewayConfig);

  it('should refuse a caller past its own bound with a 429 and Retry-After, and others past the global one with a 503', () => {
    const slots = slotsOf(3, 2);
    slots.acquire('ann');
    slots.acquire('ann');
    let refused: unknown;
    try {
      slots.acquire('ann');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TooManyImportsException);
    expect((refused as TooManyImportsException).getStatus()).toBe(429);
    expect((refused as TooManyImportsException).retryAfterSeconds).toBe(5);
    slots.acquire('bob');
    expect(() => slots.acquire('cy')).toThrow(ServiceBusyException);
    expect(slots.count()).toBe(3);
  });

  it('should free a slot once however often it is released, and forget idle callers', () => {
    const slots = slotsOf(2, 1);
    const slot = slots.acquire('ann');
    slot.release();
    slot.release();
    expect(slots.count()).toBe(0);
    expect(slots.count('ann')).toBe(0);
    slots.acquire('ann');
    slots.acquire('bob');
    expect(() => slots.acquire('cy')).toThrow(ServiceBusyException);
  });

  it('should give background work a slot only when one stays free for people, or nothing is in flight', () => {
    const slots = slotsOf(3, 3);
    const spare = [slots.acquireSpare(), slots.acquireSpare()];
    expect(spare).toEqual([expect.anything(), expect.anything()]);
    expect(slots.acquireSpare()).toBeUndefined();
    slots.acquire('ann');
    spare.forEach((slot) => slot!.release());
    expect(slots.acquireSpare()).toBeDefined();
    slots.acquire('ann');
    expect(slots.acquireSpare()).toBeUndefined();
    const alone = slotsOf(1, 1);
    expect(alone.acquireSpare()).toBeDefined();
    expect(() => alone.acquire('ann')).toThrow(ServiceBusyException);
  });
});
