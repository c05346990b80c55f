import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { notFound } from '../errors';
import { actionGroup, AUDIT_ACTIONS, type AuditEvent, type AuditEventsQuery, type AuditFilters } from '../schemas/audit';
import { encodeCursor, type ChangeCursor } from '../schemas/task';

interface AuditRow {
  id: string;
  occurred_at: Date;
  action: AuditEvent['action'];
  actor_type: AuditEvent['actor']['type'];
  actor_id: string | null;
  actor_name: string | null;
  target_type: AuditEvent['target']['type'];
  target_id: string | null;
  target_name: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  changes: AuditEvent['changes'];
}

/** A row as the API, the export, the CLI and the webhook (record.ts) all show it. */
export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    target: { type: row.target_type, id: row.target_id, name: row.target_name },
    ip: row.ip,
    userAgent: row.user_agent,
    requestId: row.request_id,
    changes: row.changes,
  };
}

/**
 * The conditions of a query, each served by one of the table's indexes in the list's
 * order (workspace, filter, occurred_at desc, id desc): a page reads a page of entries.
 */
function conditions(workspaceId: string, filters: AuditFilters, after?: ChangeCursor): Prisma.Sql {
  const where = [Prisma.sql`workspace_id = ${workspaceId}::uuid`];
  if (filters.action) {
    where.push(
      (AUDIT_ACTIONS as readonly string[]).includes(filters.action)
        ? Prisma.sql`action = ${filters.action}`
        : Prisma.sql`action_group = ${actionGroup(filters.action)}`,
    );
  }
  if (filters.actorType) where.push(Prisma.sql`actor_type = ${filters.actorType}`);
  if (filters.actorId) where.push(Prisma.sql`actor_id = ${filters.actorId}`);
  if (filters.targetType) where.push(Prisma.sql`target_type = ${filters.targetType}`);
  if (filters.targetId) where.push(Prisma.sql`target_id = ${filters.targetId}`);
  if (filters.since) where.push(Prisma.sql`occurred_at >= ${filters.since}`);
  if (filters.until) where.push(Prisma.sql`occurred_at < ${filters.until}`);
  if (after) where.push(Prisma.sql`(occurred_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  return Prisma.join(where, ' AND ');
}

const COLUMNS = Prisma.sql`id::text, occurred_at, action, actor_type, actor_id, actor_name, target_type, target_id, target_name,
  ip, user_agent, request_id, changes`;

async function page(db: Db, workspaceId: string, filters: AuditFilters, limit: number, after?: ChangeCursor): Promise<AuditRow[]> {
  return db.$queryRaw<AuditRow[]>`
    SELECT ${COLUMNS} FROM audit_event WHERE ${conditions(workspaceId, filters, after)}
    ORDER BY occurred_at DESC, id DESC
    LIMIT ${limit}`;
}

const cursorOf = (row: AuditRow): ChangeCursor => ({ at: row.occurred_at, id: row.id });

/** One page of the workspace's events, newest first, in one statement; read on with `after` = `meta.nextCursor`. */
export async function listAuditEvents(db: Db, workspaceId: string, query: AuditEventsQuery) {
  const rows = await page(db, workspaceId, query, query.limit + 1, query.after);
  const events = rows.slice(0, query.limit);
  const last = events.at(-1);
  return {
    events: events.map(toAuditEvent),
    meta: { hasMore: rows.length > query.limit, nextCursor: last ? encodeCursor(cursorOf(last)) : null },
  };
}

/** Rows an export reads at a time: what it holds in memory, however many events it sends. */
export const EXPORT_PAGE = 500;

/** Every event the filters match, newest first, a page at a time as the reader asks for them. */
export async function* exportAuditEvents(db: Db, workspaceId: string, filters: AuditFilters): AsyncGenerator<AuditEvent[]> {
  let after: ChangeCursor | undefined;
  for (;;) {
    const rows = await page(db, workspaceId, filters, EXPORT_PAGE, after);
    if (rows.length > 0) yield rows.map(toAuditEvent);
    if (rows.length < EXPORT_PAGE) return;
    after = cursorOf(rows.at(-1)!);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const AUDIT_EVENT_NOT_FOUND = 'Audit event not found';

/** One event of the workspace, for its detail view; another workspace's is not found. */
export async function getAuditEvent(db: Db, workspaceId: string, id: string): Promise<AuditEvent> {
  if (!UUID.test(id)) throw notFound(AUDIT_EVENT_NOT_FOUND);
  const [row] = await db.$queryRaw<AuditRow[]>`
    SELECT ${COLUMNS} FROM audit_event WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid`;
  if (!row) throw notFound(AUDIT_EVENT_NOT_FOUND);
  return toAuditEvent(row);
}
