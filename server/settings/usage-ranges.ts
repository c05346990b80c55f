import { z } from 'zod';
import type { Granularity } from '../schemas/usage';

const HOUR_MS = 3_600_000;

/**
 * The ranges the usage page offers, from an hour to the 90 days usage is kept, each
 * with the bucket that draws it in 24 to 168 bars: minutes for an hour, hours up to
 * a week, days beyond.
 */
export const USAGE_RANGES = {
  '1h': { label: 'Last hour', since: '1 hour ago', ms: HOUR_MS, granularity: 'minute' },
  '24h': { label: 'Last 24 hours', since: '24 hours ago', ms: 24 * HOUR_MS, granularity: 'hour' },
  '7d': { label: 'Last 7 days', since: '7 days ago', ms: 7 * 24 * HOUR_MS, granularity: 'hour' },
  '30d': { label: 'Last 30 days', since: '30 days ago', ms: 30 * 24 * HOUR_MS, granularity: 'day' },
  '90d': { label: 'Last 90 days', since: '90 days ago', ms: 90 * 24 * HOUR_MS, granularity: 'day' },
} as const satisfies Record<string, { label: string; since: string; ms: number; granularity: Granularity }>;

export type UsageRange = keyof typeof USAGE_RANGES;
export const DEFAULT_USAGE_RANGE: UsageRange = '24h';

export const usageRange = z.enum(Object.keys(USAGE_RANGES) as [UsageRange, ...UsageRange[]]);

/** The range a page's ?range= asks for, or the default for anything else. */
export function rangeOf(asked: unknown): UsageRange {
  const parsed = usageRange.safeParse(asked);
  return parsed.success ? parsed.data : DEFAULT_USAGE_RANGE;
}
