import { db, type Db } from '../db/client';
import { freshReplica, hasReplica, replicaFailed, replicaStickinessMs } from '../db/replica';
import { asUnavailable } from '../errors';
import { logThrottled } from '../log';
import { recentWriters } from '../ratelimit/recent-writers';

/**
 * Where a public procedure's statements go. Writes, and everything a write checks
 * (If-Match, idempotency claims, keys, limits), go to the primary. Reads go to the
 * replica when one is configured, within its lag bound, and the principal has not
 * written within the replica's stickiness: a key or app reads its own writes at once,
 * on any instance. A read the replica fails for want of it is read again on the primary.
 */

interface Outcome {
  ok: boolean;
  error?: unknown;
}

// Until then this process reads nothing from the replica: a mark it could not store
// may be missing from the shared store, and its own next reads must still see the write.
let primaryOnlyUntil = 0;

export function reading<T extends Outcome>(principalId: string, read: (from: Db) => Promise<T>): Promise<T> {
  // Most servers have no replica: their reads go straight to the primary, with no check awaited that finds none.
  return hasReplica() ? readingWithReplica(principalId, read) : read(db());
}

async function readingWithReplica<T extends Outcome>(principalId: string, read: (from: Db) => Promise<T>): Promise<T> {
  const replica = performance.now() < primaryOnlyUntil ? null : await freshReplica();
  if (!replica || (await recentWriters().wroteRecently(principalId))) return read(db());
  const outcome = await read(replica);
  if (outcome.ok || !(asUnavailable(outcome.error) || isRecoveryConflict(outcome.error))) return outcome;
  replicaFailed();
  return read(db());
}

/**
 * A standby cancels a statement whose rows its replay must remove (SQLSTATE 40001,
 * "conflict with recovery"): the primary answers it.
 */
function isRecoveryConflict(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 6; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, meta } = cause as { code?: unknown; meta?: { driverAdapterError?: { cause?: { code?: unknown } } } };
    if (code === '40001' || meta?.driverAdapterError?.cause?.code === '40001') return true;
  }
  return false;
}

/** After a principal's write, before its answer: its next reads, on any instance, go to the primary. */
export async function wrote(principalId: string): Promise<void> {
  if (!hasReplica()) return;
  const forMs = replicaStickinessMs();
  try {
    await recentWriters().mark(principalId, forMs);
  } catch (error) {
    primaryOnlyUntil = performance.now() + forMs;
    logThrottled('replica.write_mark_failed', 60_000, { error, note: 'this process reads from the primary for a while' });
  }
}
