import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { encodeCursor, type ChangeCursor } from '../schemas/task';
import type { RequestsQuery } from '../schemas/request-log';

interface Row {
  id: string;
  occurred_at: Date;
  principal_id: string;
  principal_kind: 'key' | 'app';
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
  idempotency_key: string | null;
  replayed: boolean;
  ip: string;
  user_agent: string | null;
  message: string | null;
}

/**
 * A workspace's recorded requests, newest first, through the filters of `query`,
 * one page after `query.after`, in one statement: each filter has an index that
 * leads with the workspace, and since/until prune the days' partitions.
 */
export async function listRequests(db: Db, workspaceId: string, query: RequestsQuery) {
  const conditions = [Prisma.sql`workspace_id = ${workspaceId}::uuid`];
  if (query.principalId) conditions.push(Prisma.sql`principal_id = ${query.principalId}::uuid`);
  if (query.principalKind) conditions.push(Prisma.sql`principal_kind = ${query.principalKind}`);
  if (query.status) conditions.push(Prisma.sql`status BETWEEN ${query.status.from} AND ${query.status.to}`);
  if (query.method) conditions.push(Prisma.sql`method = ${query.method}`);
  if (query.route) conditions.push(Prisma.sql`route = ${query.route}`);
  if (query.requestId) conditions.push(Prisma.sql`request_id = ${query.requestId}::uuid`);
  if (query.idempotencyKey) conditions.push(Prisma.sql`idempotency_key = ${query.idempotencyKey}`);
  if (query.since) conditions.push(Prisma.sql`occurred_at >= ${query.since}`);
  if (query.until) conditions.push(Prisma.sql`occurred_at < ${query.until}`);
  if (query.after) conditions.push(Prisma.sql`(occurred_at, id) < (${query.after.at}::timestamptz, ${query.after.id}::uuid)`);
  const rows = await db.$queryRaw<Row[]>`
    SELECT id::text, occurred_at, principal_id::text, principal_kind, method, route, path, status::int, duration_ms, request_id::text,
      idempotency_key, replayed, ip, user_agent, message
    FROM request_log.request
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY occurred_at DESC, id DESC
    LIMIT ${query.limit + 1}`;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const next: ChangeCursor | undefined = rows.length > query.limit && last ? { at: last.occurred_at, id: last.id } : undefined;
  return {
    requests: page.map(toRecord),
    meta: { hasMore: rows.length > query.limit, nextCursor: next ? encodeCursor(next) : null },
  };
}

function toRecord(row: Row) {
  return {
    requestId: row.request_id,
    occurredAt: row.occurred_at.toISOString(),
    keyId: row.principal_kind === 'key' ? row.principal_id : null,
    appId: row.principal_kind === 'app' ? row.principal_id : null,
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    durationMs: row.duration_ms,
    idempotencyKey: row.idempotency_key,
    replayed: row.replayed,
    ip: row.ip,
    userAgent: row.user_agent,
    message: row.message,
  };
}
