import type { Db } from '../db/client';

const DAY_MS = 86_400_000;

export interface LastDay {
  requests: number;
  /** Answers that were errors: 4xx, 429 and 5xx. */
  errors: number;
}

/**
 * Each key's and app's requests of the last 24 hours, by the minute, for a whole
 * list at once: one statement, however many keys the workspace has. Keys without
 * requests are absent.
 */
export async function lastDayByPrincipal(db: Db, workspaceId: string, now = Date.now()): Promise<Record<string, LastDay>> {
  const rows = await db.$queryRaw<{ principal_id: string; requests: number; errors: number }[]>`
    SELECT principal_id::text, sum(requests)::int AS requests, (sum(requests) FILTER (WHERE status_class <> '2xx'))::int AS errors
    FROM request_log.usage_minute
    WHERE workspace_id = ${workspaceId}::uuid AND bucket >= ${new Date(now - DAY_MS)}
    GROUP BY 1`;
  return Object.fromEntries(rows.map((row) => [row.principal_id, { requests: row.requests, errors: row.errors ?? 0 }]));
}
