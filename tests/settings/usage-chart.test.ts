import { describe, expect, it } from 'vitest';
import { formatMs, formatRate } from '../../app/settings/activity/format';
import { niceCeiling } from '../../app/settings/usage/nice-scale';
import { timeline } from '../../app/settings/usage/timeline';
import { rangeOf } from '../../server/settings/usage-ranges';

const counts = { requests: 5, '2xx': 4, '4xx': 1, '429': 0, '5xx': 0, p50Ms: 2, p95Ms: 8 };

describe('the usage chart’s buckets', () => {
  it('are every minute of the range, the quiet ones empty, from the minute the range starts in', () => {
    const buckets = timeline({
      granularity: 'minute',
      since: '2026-11-27T17:00:30.000Z',
      until: '2026-11-27T18:00:30.000Z',
      buckets: [{ start: '2026-11-27T17:30:00.000Z', ...counts }],
    });
    expect(buckets).toHaveLength(61);
    expect(buckets[0]).toMatchObject({ start: '2026-11-27T17:00:00.000Z', requests: 0, p95Ms: null });
    expect(buckets[30]).toEqual({ start: '2026-11-27T17:30:00.000Z', ...counts });
    expect(buckets.at(-1)?.start).toBe('2026-11-27T18:00:00.000Z');
  });

  it('start on UTC days for a range of days', () => {
    const buckets = timeline({ granularity: 'day', since: '2026-10-28T18:00:00.000Z', until: '2026-11-27T18:00:00.000Z', buckets: [] });
    expect(buckets).toHaveLength(31);
    expect(buckets[0]?.start).toBe('2026-10-28T00:00:00.000Z');
  });
});

describe('the usage figures', () => {
  it.each([
    [0, 1],
    [7, 10],
    [12, 20],
    [33.3, 50],
    [100, 100],
    [1200, 2000],
  ])('draw a scale of %d up to %d', (max, top) => expect(niceCeiling(max)).toBe(top));

  it('say rates and durations short, and nothing where nothing was counted', () => {
    expect([formatRate(3, 9), formatRate(1, 40), formatRate(0, 5), formatRate(0, 0)]).toEqual(['33 %', '2.5 %', '0 %', '—']);
    expect([formatMs(8), formatMs(1448.2), formatMs(null)]).toEqual(['8 ms', '1.4 s', '—']);
  });

  it('keep a range the page knows, and the last 24 hours for anything else', () => {
    expect([rangeOf('1h'), rangeOf('90d'), rangeOf('2y'), rangeOf(['1h', '7d']), rangeOf(undefined)]).toEqual([
      '1h',
      '90d',
      '24h',
      '24h',
      '24h',
    ]);
  });
});
