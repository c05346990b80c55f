import { z } from 'zod';
import { db } from '../db/client';
import type { PrincipalName } from '../keys/names';
import { errorGroups } from '../request-log/errors';
import { listRequests } from '../request-log/list';
import { uuid } from '../schemas/common';
import { ownRequestsQuery } from '../schemas/request-log';
import { requestLogProcedure, router } from './trpc';

const PAGE = 50;
/** The errors view's range when the page names no start: a week, long enough to see what keeps failing. */
export const ERRORS_DEFAULT_DAYS = 7;

const principal = uuid().optional();
const listInput = ownRequestsQuery.omit({ limit: true }).extend({ principal });
const errorsInput = ownRequestsQuery.pick({ status: true, method: true, route: true, since: true, until: true }).extend({ principal });

/** The workspace's keys and apps (revoked ones too, whose requests the log still holds), by name. */
async function principalsOf(workspaceId: string): Promise<PrincipalName[]> {
  const rows = await db().apiKey.findMany({
    where: { workspaceId },
    select: { id: true, name: true, grant: { select: { id: true } } },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({ id: row.id, name: row.name, kind: row.grant ? 'app' : 'key' }));
}

function named<T extends { keyId: string | null; appId: string | null }>(requests: T[], principals: PrincipalName[]) {
  const names = new Map(principals.map((entry) => [entry.id, entry.name]));
  return requests.map((request) => ({ ...request, by: names.get(request.keyId ?? request.appId ?? '') ?? 'A deleted key' }));
}

/** The Requests page: the workspace's request log with the names of its keys and apps, for owners and admins. */
export const requestsRouter = router({
  list: requestLogProcedure.input(listInput).query(async ({ ctx, input }) => {
    const { principal: principalId, ...query } = input;
    const [log, principals] = await Promise.all([
      listRequests(db(), ctx.workspace.id, { ...query, principalId, limit: PAGE }),
      principalsOf(ctx.workspace.id),
    ]);
    return { requests: named(log.requests, principals), nextCursor: log.meta.nextCursor, principals };
  }),

  /** Every record answered with this X-Request-Id: one, or each tool call of an MCP batch. */
  get: requestLogProcedure.input(z.object({ requestId: uuid() })).query(async ({ ctx, input }) => {
    const [log, principals] = await Promise.all([
      listRequests(db(), ctx.workspace.id, { requestId: input.requestId, limit: PAGE }),
      principalsOf(ctx.workspace.id),
    ]);
    return { requests: named(log.requests, principals) };
  }),

  errors: requestLogProcedure.input(errorsInput).query(async ({ ctx, input }) => {
    const { principal: principalId, ...query } = input;
    const since = query.since ?? new Date(Date.now() - ERRORS_DEFAULT_DAYS * 86_400_000);
    const [groups, principals] = await Promise.all([
      errorGroups(db(), ctx.workspace.id, { ...query, since, principalId }),
      principalsOf(ctx.workspace.id),
    ]);
    return { groups, since: since.toISOString(), principals };
  }),
});
