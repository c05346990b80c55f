import { sweepExpiredUploads } from '../attachments/direct-upload';
import { purgeAuditEvents } from '../audit/retention';
import { sweepOrphanedUploadObjects } from '../attachments/upload-objects';
import type { Db } from '../db/client';
import { PRODUCTION } from '../db/environment';
import { env } from '../env';
import { sweepExpiredRecords } from '../idempotency/records';
import { purgeOAuth } from '../oauth/purge';
import { purgeRequestLog } from '../request-log/retention';
import { purgeDeliveries, type DeliveryCursor } from '../webhooks/retention';

/** The graphile-worker task, and its job key: one purge queued at a time. */
export const PURGE_TASK = 'storage_purge';
/**
 * Every 15 minutes, beside `npm start` (graphile-worker's cron) and on Vercel
 * (vercel.json's Cron calls /api/cron/purge on the same schedule).
 */
export const PURGE_SCHEDULE = '*/15 * * * *';

/** Where a purge that stopped at its bound goes on from. */
export interface PurgeCursor {
  deliveriesAfter?: DeliveryCursor;
}

export interface PurgeReport {
  deliveries: number;
  idempotencyRecords: number;
  uploads: number;
  orphanedObjects: number;
  /** OAuth registrations no grant came of within a day (server/oauth/purge.ts). */
  oauthClients: number;
  /** Authorization codes never exchanged and access tokens past their time. */
  oauthCodesAndTokens: number;
  /** Audit events past AUDIT_LOG_RETENTION_DAYS (server/audit/retention.ts). */
  auditEvents: number;
  /** Whole days of the request log and its usage dropped (server/request-log/retention.ts). */
  requestLogDays: number;
  /** Set when a part stopped at its bound: the purge is to run again at once from there. */
  next: PurgeCursor | null;
}

/**
 * One run of the purge, each part in bounded batches through an index: expired
 * Idempotency-Key records, webhook deliveries past their retention
 * (server/webhooks/retention.ts), audit events past their retention, direct uploads
 * past their time to complete with their objects, objects under the upload prefix
 * nobody references, and the request log's days past their retention (dropped whole,
 * never deleted row by row). The parts
 * that need only the database come first, so a storage that fails holds up none of
 * them; a preview runs those alone. `now` is for tests and the soak, which look ahead.
 */
export async function purgeStorage(db: Db, { now, after = {} }: { now?: number; after?: PurgeCursor } = {}): Promise<PurgeReport> {
  const records = await sweepExpiredRecords(db, now === undefined ? undefined : new Date(now));
  const deliveries = await purgeDeliveries(db, now ?? Date.now(), after.deliveriesAfter);
  const oauth = await purgeOAuth(db, now);
  const audit = await purgeAuditEvents(db, now ?? Date.now(), env().auditLogRetentionDays);
  const requestLogDays = await purgeRequestLog(db, now ?? Date.now(), env().requestLog.retentionDays);
  // A deployment that is not production's (a preview) may run on a copy of production's
  // database with production's Blob store: an object its database does not know, or thinks
  // expired, may be production's. It leaves the store, and the rows naming its objects, alone.
  const storeIsOurs = env().deploymentEnvironment === PRODUCTION;
  const uploads = storeIsOurs ? await sweepExpiredUploads(db, now) : { deleted: 0, more: false };
  const orphanedObjects = storeIsOurs ? await sweepOrphanedUploadObjects(db, now) : 0;
  const more = records.more || uploads.more || oauth.more || audit.more || deliveries.next !== null;
  return {
    deliveries: deliveries.deleted,
    idempotencyRecords: records.deleted,
    uploads: uploads.deleted,
    orphanedObjects,
    oauthClients: oauth.clients,
    oauthCodesAndTokens: oauth.codesAndTokens,
    auditEvents: audit.deleted,
    requestLogDays,
    next: more ? { deliveriesAfter: deliveries.next ?? undefined } : null,
  };
}
