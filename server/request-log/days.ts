/** The request log's tables hold one partition per UTC day (see the migration 20261127181000_request_log). */
export const DAY_MS = 86_400_000;

/** `2026-11-27`: the UTC day of an instant. */
export function utcDay(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** Creates, where missing, the partitions of `days` days from the one `from` falls in. */
export const CREATE_DAYS = 'SELECT request_log.create_days($1::date, $2::int)';
