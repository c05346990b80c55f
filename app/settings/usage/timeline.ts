import type { Granularity, Usage } from '@/server/schemas/usage';

const STEP_MS: Record<Granularity, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export type Bucket = Usage['buckets'][number];

/**
 * Every bucket of the report's range, oldest first: the report holds only the buckets
 * that saw requests, and a chart needs the quiet ones as bars of nothing. Buckets
 * start on the UTC minute, hour or day, as the report's do.
 */
export function timeline(report: Pick<Usage, 'granularity' | 'since' | 'until' | 'buckets'>): Bucket[] {
  const step = STEP_MS[report.granularity];
  const seen = new Map(report.buckets.map((bucket) => [Date.parse(bucket.start), bucket]));
  const buckets: Bucket[] = [];
  for (let start = Math.floor(Date.parse(report.since) / step) * step; start < Date.parse(report.until); start += step) {
    buckets.push(seen.get(start) ?? empty(new Date(start).toISOString()));
  }
  return buckets;
}

function empty(start: string): Bucket {
  return { start, requests: 0, '2xx': 0, '4xx': 0, '429': 0, '5xx': 0, p50Ms: null, p95Ms: null };
}
