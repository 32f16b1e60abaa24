/** A score as answers show it: to `digits` decimals (4: differences a person could act on, without float noise). */
export function round(value: number, digits = 4): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
