/**
 * Lower bound of the Wilson score interval for `successes` out of `trials`. Used to rank and to
 * qualify shares: with 4 of 5 positive the share is 80 % but the bound is about 38 %.
 */
export function wilsonLowerBound(successes: number, trials: number, z: number): number {
  if (trials === 0) return 0;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p) + z2 / (4 * trials)) / trials);
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

/** Rounded for publication: shares have 4 decimals, enough for a percentage with two. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
