import type { RequestState } from '../api/access';
import { describeIssues } from '../api/errors';
import type { RouteMatch } from '../api/routes';
import { csvHeader, csvRow, ndjsonLine } from '../audit/export-format';
import { exportAuditEvents } from '../audit/list';
import { db } from '../db/client';
import { badRequest } from '../errors';
import { logEvent } from '../log';
import { auditExportQuery } from '../schemas/audit';
import { responseHeaders } from './respond';

const CONTENT_TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' };

/** GET /v1/public/audit-events/export, which tRPC would answer whole from memory. */
export function isAuditExportRoute(route: RouteMatch): boolean {
  return route.procedure === 'auditEvents.export';
}

/**
 * The workspace's events as NDJSON or CSV, read a page at a time as the client reads
 * the answer: memory holds one page whatever the export's length. The gate has passed
 * (public-api.ts). A failure once the answer has begun can only cut it short: it is
 * logged with the request id, and the client sees the connection end early.
 */
export function exportAuditLog(state: RequestState, workspaceId: string, url: URL): Response {
  const parsed = auditExportQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues));
  const { format, ...filters } = parsed.data;
  const pages = exportAuditEvents(db(), workspaceId, filters);
  const encoder = new TextEncoder();
  let headerSent = format !== 'csv';
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvHeader()));
          return;
        }
        try {
          const next = await pages.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value.map(format === 'csv' ? csvRow : ndjsonLine).join('')));
        } catch (error) {
          logEvent('error', 'audit.export_failed', { requestId: state.requestId, error });
          controller.error(error);
        }
      },
      async cancel() {
        await pages.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      ...responseHeaders(state, 200),
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="audit-events.${format}"`,
    },
  });
}
