const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `24 Nov 2026, 00:36 UTC`: what the server renders, built by hand so that the
 * browser, hydrating, produces the same text whatever its zone, locale and ICU.
 */
export function exactUtc(iso: string): string {
  const date = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
}

/** The exact time in the reader's zone and locale, then the UTC time the API's answers and the logs carry. */
export function exactLocal(iso: string): string {
  const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' }).format(new Date(iso));
  return `${local} (${new Date(iso).toISOString()})`;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Up to each bound (in seconds) a time is told in the unit beside it, rounded. */
const UNITS: [number, Intl.RelativeTimeFormatUnit, number][] = [
  [45 * MINUTE, 'minute', MINUTE],
  [22 * HOUR, 'hour', HOUR],
  [45 * DAY, 'day', DAY],
  [320 * DAY, 'month', 30 * DAY],
  [Infinity, 'year', 365 * DAY],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always', style: 'long' });

/**
 * "3 minutes ago", "in 2 hours", "in 30 days": how far `iso` is from `now` (ms since
 * the epoch). Under 45 seconds either way is "just now": a browser's clock a few
 * seconds ahead of the server's must not make a key created this instant "in 5 seconds".
 */
export function relativeTime(iso: string, now: number): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  const [, unit, size] = UNITS.find(([bound]) => Math.abs(seconds) < bound)!;
  return relative.format(Math.round(seconds / size) || Math.sign(seconds), unit);
}
