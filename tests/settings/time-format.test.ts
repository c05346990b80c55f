import { describe, expect, it } from 'vitest';
import { exactUtc, relativeTime } from '../../app/ui/time-format';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();

describe('relative times', () => {
  it.each([
    [-10, 'just now'],
    [30, 'just now'],
    [-3 * 60, '3 minutes ago'],
    [-44 * 60, '44 minutes ago'],
    [-50 * 60, '1 hour ago'],
    [2 * 3600, 'in 2 hours'],
    [-21 * 3600, '21 hours ago'],
    [-23 * 3600, '1 day ago'],
    [30 * 86400, 'in 30 days'],
    [-44 * 86400, '44 days ago'],
    [90 * 86400, 'in 3 months'],
    [-400 * 86400, '1 year ago'],
  ])('%i s from now is “%s”', (seconds, text) => {
    expect(relativeTime(at(seconds), NOW)).toBe(text);
  });
});

describe('the exact UTC time the server renders', () => {
  it('is the day, month, year, hour and minute in UTC, whatever the zone of the process', () => {
    expect(exactUtc('2026-11-24T00:36:33.013Z')).toBe('24 Nov 2026, 00:36 UTC');
    expect(exactUtc('2027-01-05T23:59:59.999Z')).toBe('5 Jan 2027, 23:59 UTC');
  });
});
