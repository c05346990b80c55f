import type { Db } from '../db/client';
import { inBatches } from '../db/batches';

const BATCH = 1_000;
const MAX_BATCHES = 10;
const DAY_MS = 86_400_000;

/**
 * The audit log's part of the scheduled purge (server/retention/purge.ts): events older
 * than the retention, oldest first through the (occurred_at, id) index, at most
 * MAX_BATCHES batches a run; `more` when it stopped there.
 */
export async function purgeAuditEvents(db: Db, now: number, retentionDays: number): Promise<{ deleted: number; more: boolean }> {
  const before = new Date(now - retentionDays * DAY_MS);
  return inBatches(
    () => db.$executeRaw`
      DELETE FROM audit_event WHERE id IN (
        SELECT id FROM audit_event WHERE occurred_at < ${before} ORDER BY occurred_at, id LIMIT ${BATCH}::int)`,
    BATCH,
    MAX_BATCHES,
  );
}
