import { SpecWork } from '../../apps/gateway/src/registry/spec-work.service.js';
import type { TestStack } from './stack.js';

/**
 * Ends the lints the gateway runs in the background after a registration (its `analysis` spec
 * thread), whatever they are doing, so that closing the stack does not wait for them.
 *
 * The gateway's shutdown lets a running lint finish (piscina's `close` waits up to 30 s for a
 * running task) although the lint's report can no longer be kept: its database closes with it
 * ("Lint of API … not kept: Driver not Connected"). A hostile spec's lint takes 20 to 60 s, so a
 * suite that registers one and asserts nothing about its lint spends that long in `afterAll`.
 * Call this right before `stack.close()`, once nothing more is asked of the stack: the lints
 * still run beside everything the tests did before.
 *
 * It reaches into private fields (`SpecWork.analysis`, `SpecThreads.pool`): a rename there is a
 * type error here, not a silent change.
 */
export async function endBackgroundLints(stack: TestStack): Promise<void> {
  const work = stack.gateway.get(SpecWork, { strict: false });
  await work['analysis']['pool'].destroy();
}
