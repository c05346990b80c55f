import { z } from 'zod';
import { db } from '../db/client';
import { listRequests } from '../request-log/list';
import { uuid } from '../schemas/common';
import { statusFilter } from '../schemas/request-log';
import { changeCursor } from '../schemas/task';
import { requestLogProcedure, router } from './trpc';

const PAGE = 50;

/** The Requests page: the workspace's request log with the names of its keys and apps, for owners and admins. */
export const requestsRouter = router({
  list: requestLogProcedure
    .input(
      z.object({
        status: statusFilter.optional(),
        requestId: uuid().optional(),
        idempotencyKey: z.string().max(255, 'must be at most 255 characters').optional(),
        after: changeCursor().optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const [log, principals] = await Promise.all([
        listRequests(db(), ctx.workspace.id, { ...input, limit: PAGE }),
        db().apiKey.findMany({ where: { workspaceId: ctx.workspace.id }, select: { id: true, name: true } }),
      ]);
      const names = new Map(principals.map((principal) => [principal.id, principal.name]));
      return {
        requests: log.requests.map((request) => ({ ...request, by: names.get(request.keyId ?? request.appId ?? '') ?? 'A deleted key' })),
        nextCursor: log.meta.nextCursor,
      };
    }),
});
