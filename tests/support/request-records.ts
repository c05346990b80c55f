import { randomUUID } from 'node:crypto';
import { SERVICE_UNAVAILABLE, TOO_MANY_REQUESTS } from '../../server/api/messages';
import { processPool } from '../../server/db/client';
import { CREATE_DAYS, DAY_MS, utcDay } from '../../server/request-log/days';
import type { RequestRecord } from '../../server/request-log/record';
import { writeRecords } from '../../server/request-log/write';

export type LoggedRequest = Pick<RequestRecord, 'occurredAt' | 'status'> & Partial<RequestRecord>;

/** A message the API answers with that status, so a page grouping errors groups what it would. */
function messageOf(status: number): string | null {
  if (status < 400) return null;
  if (status === 429) return TOO_MANY_REQUESTS;
  return status >= 500 ? SERVICE_UNAVAILABLE : 'Task not found';
}

/**
 * Requests of a key or an app written into the request log and usage as a flush
 * writes them, at the times given: the pages' data without sending each request.
 */
export async function logRequests(workspaceId: string, principal: { id: string; kind: 'key' | 'app' }, requests: LoggedRequest[]) {
  const times = requests.map((request) => request.occurredAt.getTime());
  const first = Math.min(...times);
  await processPool().query(CREATE_DAYS, [utcDay(first), Math.floor(Math.max(...times) / DAY_MS) - Math.floor(first / DAY_MS) + 1]);
  await writeRecords(
    processPool(),
    requests.map((request) => ({
      id: randomUUID(),
      workspaceId,
      principalId: principal.id,
      principalKind: principal.kind,
      method: 'GET',
      route: '/v1/public/{projectSlug}/tasks',
      path: '/v1/public/web/tasks',
      durationMs: 12,
      requestId: randomUUID(),
      idempotencyKey: null,
      replayed: false,
      ip: '203.0.113.7',
      userAgent: 'roadmap-sync/2.3 (+https://example.com)',
      message: messageOf(request.status),
      ...request,
    })),
  );
}
