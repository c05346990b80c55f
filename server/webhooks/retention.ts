import type { Db } from '../db/client';

/** How long a delivery, its body with it, is kept: as Stripe and Svix keep theirs, long enough to look into a month of failures. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
/** The newest deliveries of each endpoint, kept whatever their age: a quiet endpoint still shows its history. */
export const KEPT_PER_ENDPOINT = 50;
const BATCH = 1000;
const MAX_BATCHES = 10;

/** Where a walk over the deliveries stopped: the last one it looked at, in (created_at, id) order. */
export interface DeliveryCursor {
  at: string;
  id: string;
}

const START: DeliveryCursor = { at: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

/**
 * Deletes deliveries older than the retention, except each endpoint's newest 50, walking
 * from the oldest through the index on (created_at, id): each statement looks at 1,000
 * deliveries and, for each of their endpoints, at 50 entries of the index on
 * (endpoint_id, created_at); a run makes at most 10 of them. Returns how many went, and where to go on from when
 * the run stopped before the end (the kept deliveries of quiet endpoints are passed over
 * once per walk, not once per run).
 */
export async function purgeDeliveries(
  db: Db,
  now: number,
  after: DeliveryCursor = START,
): Promise<{ deleted: number; next: DeliveryCursor | null }> {
  const cutoff = new Date(now - DELIVERY_RETENTION_MS).toISOString();
  let deleted = 0;
  let cursor = after;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const [result] = await db.$queryRaw<{ deleted: number; examined: number; last_at: string | null; last_id: string | null }[]>`
      WITH candidates AS (
        SELECT id, endpoint_id, created_at FROM webhook_delivery
        WHERE created_at < ${cutoff}::timestamptz AND (created_at, id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)
        ORDER BY created_at, id LIMIT ${BATCH}::int
      ), kept_from AS MATERIALIZED (
        -- Once per endpoint among them: its 50th newest delivery, read backwards off the index on
        -- (endpoint_id, created_at); a delivery before it has 50 newer ones. The
        -- endpoint is bounded on both sides rather than equal to one value, so that only that
        -- index gives the order: with stale statistics (a table that just grew; PGlite, which
        -- never analyzes) the planner otherwise walked (created_at, id) backwards through every
        -- other endpoint's deliveries, or, asked per delivery, took every newer entry in a bitmap
        -- (4.4 s a statement in the soak, 0.9 ms like this).
        SELECT e.endpoint_id, fiftieth.created_at, fiftieth.id FROM (SELECT DISTINCT endpoint_id FROM candidates) e
        CROSS JOIN LATERAL (
          SELECT d.created_at, d.id FROM webhook_delivery d WHERE d.endpoint_id >= e.endpoint_id AND d.endpoint_id <= e.endpoint_id
          ORDER BY d.endpoint_id DESC, d.created_at DESC, d.id DESC OFFSET ${KEPT_PER_ENDPOINT - 1}::int LIMIT 1) fiftieth
      ), doomed AS (
        -- Ties on the time (deliveries of one transaction) are ordered by id, as the walk orders them.
        SELECT c.id FROM candidates c JOIN kept_from k ON k.endpoint_id = c.endpoint_id WHERE (c.created_at, c.id) < (k.created_at, k.id)
      ), gone AS (
        DELETE FROM webhook_delivery d USING doomed WHERE d.id = doomed.id RETURNING d.id
      ), last AS (
        SELECT created_at, id FROM candidates ORDER BY created_at DESC, id DESC LIMIT 1
      )
      SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT count(*) FROM candidates)::int AS examined,
             (SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM last) AS last_at,
             (SELECT id::text FROM last) AS last_id`;
    deleted += result!.deleted;
    if (result!.examined < BATCH) return { deleted, next: null };
    cursor = { at: result!.last_at!, id: result!.last_id! };
  }
  return { deleted, next: cursor };
}
