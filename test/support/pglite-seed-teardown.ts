import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** Jest's global teardown: removes the seed that `pglite-seed.ts` made. */
export default function removePgliteSeed(): void {
  const seed = process.env.TEST_PGLITE_SEED;
  if (seed) rmSync(dirname(seed), { recursive: true, force: true });
}
