import type { Logger } from '@nestjs/common';

/**
 * A warning written at most once per interval: for an error that repeats as long as a dependency
 * is down (each Redis reconnect attempt), where one line says all there is to say.
 */
export function throttledWarning(logger: Logger, intervalMs = 30_000): (message: string) => void {
  let lastAt = -Infinity;
  return (message) => {
    if (Date.now() - lastAt < intervalMs) return;
    lastAt = Date.now();
    logger.warn(message);
  };
}
