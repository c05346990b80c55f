import { listRequests } from '../../request-log/list';
import { listOwnRequests } from '../../request-log/own';
import { ownRequestsQuery, requestListSchema, requestsQuery } from '../../schemas/request-log';
import { operation } from '../operation';
import { router, workspaceProcedure } from '../trpc';

const filterErrors = {
  400: [
    'status: must be a status code such as 404, or a class: 2xx, 3xx, 4xx or 5xx',
    'requestId: must be a UUID',
    'since: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z',
    'after: must be a cursor from meta.nextCursor',
    'limit: must be a whole number from 1 to 100',
  ],
};

export const requestsRouter = router({
  // Before `list`'s path would not matter (no parameter captures `mine`), but reads better first.
  mine: workspaceProcedure(null)
    .meta(
      operation('GET', '/requests/mine', {
        summary: 'List my recent requests',
        tag: 'Requests',
        description:
          "The caller's own requests of the last 24 hours, newest first: every key and app may read them, no scope needed. " +
          'Find a failed call by the `X-Request-Id` it was answered with (`requestId`), by status (`4xx`) or by `Idempotency-Key`; ' +
          'a record appears within about a second of its answer.',
        errors: filterErrors,
      }),
    )
    .input(ownRequestsQuery)
    .output(requestListSchema)
    .query(({ ctx, input }) => listOwnRequests(ctx.db, ctx.principal, input)),

  list: workspaceProcedure('requests:read')
    .meta(
      operation('GET', '/requests', {
        summary: 'List requests',
        tag: 'Requests',
        description:
          "The workspace's request log: every request made with one of its keys or apps (each MCP tool call one), newest first, " +
          `kept 30 days unless configured otherwise. No bodies and no secret headers are recorded.`,
        errors: { 400: [...filterErrors[400], 'keyId: must be a UUID', 'appId: cannot be combined with keyId'] },
      }),
    )
    .input(requestsQuery)
    .output(requestListSchema)
    .query(({ ctx, input }) => {
      const { keyId, appId, ...filters } = input;
      const principal = keyId
        ? { principalId: keyId, principalKind: 'key' as const }
        : appId
          ? { principalId: appId, principalKind: 'app' as const }
          : {};
      return listRequests(ctx.db, ctx.principal.workspaceId, { ...filters, ...principal });
    }),
});
