/** The top of a chart's scale: the smallest 1, 2 or 5 times a power of ten at or above `max`, so the axis reads round. */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}
