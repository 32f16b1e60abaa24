/** Rejects with `message` when `promise` has not settled within `ms` (the promise itself runs on). */
export function withTimeout<T>(promise: Promise<T>, ms: number, message = `timed out after ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref(); // a pending timeout alone never keeps the process alive
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
