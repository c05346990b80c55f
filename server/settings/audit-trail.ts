import { listAuditEvents } from '../audit/list';
import { db } from '../db/client';
import type { AuditEvent } from '../schemas/audit';

/** How many of a key's or app's events its page shows; the Audit log page has them all. */
const TRAIL_EVENTS = 20;

/** A key's or app's newest audit events, those that name it as their target: one statement. */
export async function auditTrail(workspaceId: string, targetType: 'api_key' | 'oauth_app', targetId: string): Promise<AuditEvent[]> {
  return (await listAuditEvents(db(), workspaceId, { targetType, targetId, limit: TRAIL_EVENTS })).events;
}
