import type { Db } from '../db/client';
import { DAY_MS, utcDay } from './days';

/** Per-minute counts answer ranges of a day at most; a week of them is kept. */
export const USAGE_MINUTE_DAYS = 7;
/** Per-hour counts answer ranges of up to 90 days back, and the day being counted. */
export const USAGE_HOUR_DAYS = 92;
/** Days created ahead of the one being written, so that no write waits for one. */
const DAYS_AHEAD = 2;

/**
 * The purge's part for the request log and usage: the days ahead are created, and
 * every day whose whole span is older than its table keeps is dropped, one DROP
 * TABLE per day, however many rows it held. Returns the days dropped.
 */
export async function purgeRequestLog(db: Db, now: number, retentionDays: number): Promise<number> {
  await db.$queryRaw`SELECT request_log.create_days(${utcDay(now)}::date, ${DAYS_AHEAD + 1}::int)`;
  const keepFrom = (days: number) => new Date(now - days * DAY_MS);
  const [dropped] = await db.$queryRaw<{ days: number }[]>`
    SELECT request_log.drop_days('request', ${keepFrom(retentionDays)})
      + request_log.drop_days('usage_minute', ${keepFrom(USAGE_MINUTE_DAYS)})
      + request_log.drop_days('usage_hour', ${keepFrom(USAGE_HOUR_DAYS)}) AS days`;
  return dropped?.days ?? 0;
}
