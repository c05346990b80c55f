import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { UPLOAD_URL_TTL_MS } from '../schemas/direct-upload';
import { storage } from '../storage/storage';

/**
 * Direct uploads' objects are named `upload-<yyyymmddhh>-<random>`, by the hour (UTC)
 * their URL was issued, so that the sweep below lists the few hours in which an
 * object nobody references can still appear, never the whole store.
 */
export const UPLOAD_KEY_PREFIX = 'upload-';
const HOUR_MS = 3_600_000;
// Blob's clock and ours may differ a little: a URL is taken as valid this much longer.
const CLOCK_MARGIN_MS = 60_000;
/**
 * How far back the sweep looks: the hours whose objects were uploaded up to two hours
 * ago. Runs every 15 minutes see each such object several times, so a run that failed
 * or was missed leaves nothing behind for good.
 */
const LOOKBACK_MS = 2 * HOUR_MS;

const hourOf = (at: number) => new Date(at).toISOString().slice(0, 13).replace(/[-T]/g, '');

/** The key of a new direct upload's object, issued at `at`. */
export function uploadKey(at: number): string {
  return `${UPLOAD_KEY_PREFIX}${hourOf(at)}-${randomUUID().replaceAll('-', '')}`;
}

/**
 * Deletes objects under the upload prefix that no attachment and no pending upload
 * references, once their URL can no longer have been used (uploaded more than its
 * 15 minutes ago). On Vercel Blob a presigned PUT works until it expires whatever
 * happened to its upload meanwhile: sent after the upload was completed and its task
 * deleted, it stores an object nothing points to. Only stores that list (Vercel Blob)
 * are swept: on local disk the app takes the bytes itself and refuses them once the
 * upload's row is gone. One list call per hour bucket (a page holds 1,000 objects) and
 * one statement per page; returns how many objects went.
 */
export async function sweepOrphanedUploadObjects(db: Db, now = Date.now()): Promise<number> {
  const store = storage();
  if (!store.list) return 0;
  const uploadedBefore = now - UPLOAD_URL_TTL_MS - CLOCK_MARGIN_MS;
  let deleted = 0;
  for (let hour = Math.floor((now - LOOKBACK_MS) / HOUR_MS); hour <= Math.floor(uploadedBefore / HOUR_MS); hour++) {
    for await (const page of store.list(`${UPLOAD_KEY_PREFIX}${hourOf(hour * HOUR_MS)}-`)) {
      const old = page.filter((object) => object.uploadedAt.getTime() < uploadedBefore).map((object) => object.key);
      if (old.length === 0) continue;
      const referenced = await db.$queryRaw<{ key: string }[]>`
        SELECT storage_key AS key FROM attachment WHERE storage_key = ANY(${old}::text[])
        UNION ALL SELECT storage_key FROM pending_upload WHERE storage_key = ANY(${old}::text[])`;
      const kept = new Set(referenced.map((row) => row.key));
      const orphans = old.filter((key) => !kept.has(key));
      if (orphans.length > 0) await store.delete(orphans);
      deleted += orphans.length;
    }
  }
  return deleted;
}
