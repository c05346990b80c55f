import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';

/** How many groups the errors view shows: past that, the rarest are left out. */
export const MAX_ERROR_GROUPS = 100;

export interface ErrorsQuery {
  principalId?: string;
  status?: { from: number; to: number };
  method?: string;
  route?: string;
  since: Date;
  until?: Date;
}

interface Row {
  method: string;
  route: string;
  status: number;
  message: string | null;
  count: bigint;
  last_seen: Date;
}

/**
 * A workspace's 4xx and 5xx answers of a time range grouped by operation (method and
 * route), status and message, with how many and when the last was: the most frequent
 * first (what keeps failing before what failed once), the most recent first among equals. One
 * statement; the status index leads with the workspace and since/until prune the days.
 */
export async function errorGroups(db: Db, workspaceId: string, query: ErrorsQuery) {
  const conditions = [
    Prisma.sql`workspace_id = ${workspaceId}::uuid`,
    Prisma.sql`status >= 400`,
    Prisma.sql`occurred_at >= ${query.since}`,
  ];
  if (query.until) conditions.push(Prisma.sql`occurred_at < ${query.until}`);
  if (query.principalId) conditions.push(Prisma.sql`principal_id = ${query.principalId}::uuid`);
  if (query.status) conditions.push(Prisma.sql`status BETWEEN ${query.status.from} AND ${query.status.to}`);
  if (query.method) conditions.push(Prisma.sql`method = ${query.method}`);
  if (query.route) conditions.push(Prisma.sql`route = ${query.route}`);
  const rows = await db.$queryRaw<Row[]>`
    SELECT method, route, status::int, message, count(*) AS count, max(occurred_at) AS last_seen
    FROM request_log.request
    WHERE ${Prisma.join(conditions, ' AND ')}
    GROUP BY method, route, status, message
    ORDER BY count(*) DESC, max(occurred_at) DESC, route, status
    LIMIT ${MAX_ERROR_GROUPS}`;
  return rows.map((row) => ({
    method: row.method,
    route: row.route,
    status: row.status,
    message: row.message,
    count: Number(row.count),
    lastSeen: row.last_seen.toISOString(),
  }));
}

export type ErrorGroup = Awaited<ReturnType<typeof errorGroups>>[number];
