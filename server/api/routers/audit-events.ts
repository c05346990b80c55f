import { z } from 'zod';
import { listAuditEvents } from '../../audit/list';
import { AppError } from '../../errors';
import { AUDIT_READ } from '../../keys/scopes';
import { auditEventListSchema, auditEventsQuery, auditExportQuery, MAX_AUDIT_PAGE } from '../../schemas/audit';
import { EXPORT_STREAMED } from '../messages';
import { operation } from '../operation';
import { router, workspaceProcedure } from '../trpc';

const filterErrors = [
  'action: must be an action such as api_key.created or a group: <groups>',
  'actorType: must be one of person, api_key, oauth_app, cli, system',
  'targetType: must be one of api_key, oauth_app, webhook_endpoint, webhook_delivery, user, workspace',
  'since: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z',
];

export const auditEventsRouter = router({
  list: workspaceProcedure(AUDIT_READ)
    .meta(
      operation('GET', '/audit-events', {
        summary: 'List audit events',
        tag: 'Audit log',
        description:
          "The workspace's audit log, newest first: keys and apps issued and revoked, webhook endpoints changed, members " +
          'added, removed and given roles, sign-ins, and revoked or expired keys presented again. Filter by action or ' +
          'group (`action=api_key`), actor, target and time; read on with `after` = `meta.nextCursor`. Needs `audit:read` ' +
          'on a key for every project. Events are kept 400 days.',
        errors: {
          400: [
            ...filterErrors,
            'after: must be a cursor from meta.nextCursor',
            `limit: must be a whole number from 1 to ${MAX_AUDIT_PAGE}`,
          ],
        },
      }),
    )
    .input(auditEventsQuery)
    .output(auditEventListSchema)
    .query(({ ctx, input }) => listAuditEvents(ctx.db, ctx.principal.workspaceId, input)),

  // Streamed by server/http/audit-export.ts before it reaches tRPC, which would build the
  // whole answer in memory; this procedure describes the operation and its checks.
  export: workspaceProcedure(AUDIT_READ)
    .meta(
      operation('GET', '/audit-events/export', {
        summary: 'Export audit events',
        tag: 'Audit log',
        description:
          'Every event the filters match, newest first, streamed: NDJSON (`format=ndjson`, one AuditEvent per line) or CSV ' +
          '(`format=csv`, a header row, `changes` as JSON text). The same filters as List audit events, without pages.',
        errors: { 400: [...filterErrors, 'format: must be one of ndjson, csv'] },
        streamed: {
          'application/x-ndjson': 'One AuditEvent as JSON per line, newest first',
          'text/csv': 'A header row, then one event per row, newest first (RFC 4180)',
        },
      }),
    )
    .input(auditExportQuery)
    .output(z.string())
    .query(() => {
      throw new AppError('method_not_allowed', EXPORT_STREAMED);
    }),
});
