import { randomUUID } from 'node:crypto';
import type { RequestState } from '../api/access';
import { env } from '../env';
import { keepRecord } from '../request-log/buffer';
import { startFlushTimer } from '../request-log/flush';

/** One answer as the request log records it; the rest comes from the request's state. */
export interface Answered {
  method: string;
  /** The operation: the path template (`/v1/public/{projectSlug}/tasks`) or the MCP tool call (`tools/call get_task`). */
  route: string;
  path: string;
  status: number;
  arrivedAt: Date;
  durationMs: number;
  idempotencyKey: string | null;
  replayed: boolean;
  message: string | null;
}

/**
 * The request log's one entrance, called where a request's answer is settled: at
 * the exit of /v1/public (public-api.ts: every operation, uploads and batches
 * included) and of /v1/mcp (mcp.ts: each tool call). A request whose key or app
 * was never identified has no workspace to be shown to and is not recorded. The
 * record only joins the process's buffer: it is written after answers, by the
 * timer of a long-lived server or, on Vercel, after this answer has gone
 * (writingLogAfterResponse, deliver-after-response.ts, around the route files).
 * A server configured to keep no request log (REQUEST_LOG_RETENTION_DAYS=0) records nothing.
 */
export function recordAnswers(state: RequestState, headers: Headers, answers: readonly Answered[]): void {
  const principal = state.principal;
  if (!principal || answers.length === 0 || env().requestLog.retentionDays === 0) return;
  for (const answer of answers) {
    keepRecord({
      id: randomUUID(),
      occurredAt: answer.arrivedAt,
      workspaceId: principal.workspaceId,
      principalId: principal.keyId,
      principalKind: principal.kind === 'grant' ? 'app' : 'key',
      method: answer.method,
      route: answer.route,
      path: answer.path,
      status: answer.status,
      durationMs: answer.durationMs,
      requestId: state.requestId,
      idempotencyKey: answer.idempotencyKey,
      replayed: answer.replayed,
      ip: state.clientAddress,
      userAgent: headers.get('user-agent'),
      message: answer.status >= 400 ? answer.message : null,
    });
  }
  if (!env().requestLog.flushAfterResponse) startFlushTimer();
}
