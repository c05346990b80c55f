import type pg from 'pg';
import { countByMinute } from '../usage/minutes';
import type { RequestRecord } from './record';

/**
 * The records and their usage in one statement, whatever their number: the
 * records as arrays unnested into the day-partitioned log, their counts added to
 * the minutes and hours they fall in (request_log.add_histograms adds the duration
 * histograms bucket by bucket), so several processes writing the same minute add
 * up rather than overwrite each other.
 */
const STATEMENT = `
WITH logged AS (
  INSERT INTO request_log.request (id, occurred_at, workspace_id, principal_id, principal_kind, method, route, path, status,
    duration_ms, request_id, idempotency_key, replayed, ip, user_agent, message)
  SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::smallint[], $10::int[], $11::uuid[], $12::text[], $13::boolean[], $14::text[], $15::text[], $16::text[])
), minutes AS (
  SELECT * FROM unnest($17::timestamptz[], $18::uuid[], $19::uuid[], $20::text[], $21::text[], $22::text[], $23::text[],
    $24::int[], $25::text[]) AS m(bucket, workspace_id, principal_id, principal_kind, method, route, status_class, requests, histogram)
), by_minute AS (
  INSERT INTO request_log.usage_minute AS u
  SELECT bucket, workspace_id, principal_id, principal_kind, method, route, status_class, requests, histogram::int[] FROM minutes
  ON CONFLICT (workspace_id, principal_id, bucket, method, route, status_class) DO UPDATE
    SET requests = u.requests + excluded.requests, histogram = request_log.add_histograms(u.histogram, excluded.histogram)
)
INSERT INTO request_log.usage_hour AS u
SELECT date_trunc('hour', bucket, 'UTC'), workspace_id, principal_id, principal_kind, method, route, status_class,
  sum(requests), request_log.sum_histograms(histogram::int[])
FROM minutes GROUP BY 1, 2, 3, 4, 5, 6, 7
ON CONFLICT (workspace_id, principal_id, bucket, method, route, status_class) DO UPDATE
  SET requests = u.requests + excluded.requests, histogram = request_log.add_histograms(u.histogram, excluded.histogram)`;

export async function writeRecords(pool: pg.Pool, records: readonly RequestRecord[]): Promise<void> {
  const minutes = countByMinute(records);
  const column = <T>(read: (record: RequestRecord) => T) => records.map(read);
  const minuteColumn = <T>(read: (row: (typeof minutes)[number]) => T) => minutes.map(read);
  await pool.query(STATEMENT, [
    column((r) => r.id),
    column((r) => r.occurredAt.toISOString()),
    column((r) => r.workspaceId),
    column((r) => r.principalId),
    column((r) => r.principalKind),
    column((r) => r.method),
    column((r) => r.route),
    column((r) => r.path),
    column((r) => r.status),
    column((r) => Math.round(r.durationMs)),
    column((r) => r.requestId),
    column((r) => r.idempotencyKey),
    column((r) => r.replayed),
    column((r) => r.ip),
    column((r) => r.userAgent),
    column((r) => r.message),
    minuteColumn((m) => m.minute.toISOString()),
    minuteColumn((m) => m.workspaceId),
    minuteColumn((m) => m.principalId),
    minuteColumn((m) => m.principalKind),
    minuteColumn((m) => m.method),
    minuteColumn((m) => m.route),
    minuteColumn((m) => m.statusClass),
    minuteColumn((m) => m.requests),
    minuteColumn((m) => `{${m.histogram.join(',')}}`),
  ]);
}
