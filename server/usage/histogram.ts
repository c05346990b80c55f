/**
 * Durations are counted in fixed buckets on a log scale, so that histograms kept by
 * different processes and instances add up bucket by bucket and a percentile of
 * any sum of them can still be read: bucket i holds durations up to 2^(i/2) ms
 * (1 ms, 1.4, 2, 2.8, … 131 s), the last one everything slower. A percentile is
 * read as the upper bound of the bucket it falls in: at most 41 % above the truth.
 */
const BUCKET_BOUNDS_MS = Array.from({ length: 35 }, (_, i) => 2 ** (i / 2));

export const HISTOGRAM_BUCKETS = BUCKET_BOUNDS_MS.length + 1;

export function emptyHistogram(): number[] {
  return new Array<number>(HISTOGRAM_BUCKETS).fill(0);
}

export function bucketOf(durationMs: number): number {
  const index = BUCKET_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
  return index === -1 ? HISTOGRAM_BUCKETS - 1 : index;
}

/** The duration (ms, one decimal) below which a share `p` (0 to 1) of the counted requests took; null if none were. */
export function percentile(histogram: readonly number[], p: number): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i] ?? 0;
    if (seen >= rank) return Math.round(BUCKET_BOUNDS_MS[Math.min(i, BUCKET_BOUNDS_MS.length - 1)]! * 10) / 10;
  }
  return null;
}

export function addHistograms(into: number[], from: readonly number[]): void {
  for (let i = 0; i < from.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
}
