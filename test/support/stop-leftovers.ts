import { stopLeftovers } from './leftovers.js';

// After the file's own hooks: a start that outlived its hook is waited for, then stopped.
afterAll(stopLeftovers, 180_000);
