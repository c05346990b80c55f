import { describe, expect, it } from 'vitest';
import { addHistograms, bucketOf, emptyHistogram, HISTOGRAM_BUCKETS, percentile } from '../../server/usage/histogram';

const histogramOf = (durations: number[]) => {
  const histogram = emptyHistogram();
  for (const ms of durations) histogram[bucketOf(ms)]! += 1;
  return histogram;
};

describe('duration histograms', () => {
  it('put each duration in the bucket whose bound is the first at or above it', () => {
    expect([0, 1, 1.2, 2, 3, 1_000, 10_000_000].map(bucketOf)).toEqual([0, 0, 1, 2, 4, 20, HISTOGRAM_BUCKETS - 1]);
  });

  it('give the same percentiles added up from parts as from the whole, within a bucket of the truth', () => {
    const durations = Array.from({ length: 1_000 }, (_, i) => 1 + (i % 100) * 3);
    const whole = histogramOf(durations);
    const parts = [histogramOf(durations.slice(0, 300)), histogramOf(durations.slice(300, 650)), histogramOf(durations.slice(650))];
    const sum = emptyHistogram();
    for (const part of parts) addHistograms(sum, part);
    expect(sum).toEqual(whole);
    const sorted = [...durations].sort((a, b) => a - b);
    for (const p of [0.5, 0.95]) {
      const exact = sorted[Math.ceil(p * sorted.length) - 1]!;
      const read = percentile(sum, p)!;
      expect(read).toBeGreaterThanOrEqual(exact);
      expect(read).toBeLessThanOrEqual(exact * Math.SQRT2 + 0.1);
    }
    expect(percentile(emptyHistogram(), 0.5)).toBeNull();
  });
});
