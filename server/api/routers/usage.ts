import { usageQuery, usageSchema } from '../../schemas/usage';
import { usageReport } from '../../usage/report';
import { operation } from '../operation';
import { router, workspaceProcedure } from '../trpc';

export const usageRouter = router({
  get: workspaceProcedure('usage:read')
    .meta(
      operation('GET', '/usage', {
        summary: 'Get usage',
        tag: 'Requests',
        description:
          "The workspace's requests over a range of an hour to 90 days, per minute, hour or day (UTC), by status class, with " +
          'p50 and p95 durations, and the keys, apps and operations that made them. Exact counts, from every server process and ' +
          'instance; a request is counted within about a second of its answer.',
        errors: {
          400: [
            'granularity: must be one of minute, hour, day',
            'since: must be before until',
            'since: must be within the last 90 days',
            'until: must be at most 90 days after since',
            'granularity: must be hour or day for a range of more than 24 hours',
            'appId: cannot be combined with keyId',
          ],
        },
      }),
    )
    .input(usageQuery)
    .output(usageSchema)
    .query(({ ctx, input }) => {
      const { keyId, appId, ...filter } = input;
      const principal = keyId
        ? { principalId: keyId, principalKind: 'key' as const }
        : appId
          ? { principalId: appId, principalKind: 'app' as const }
          : {};
      return usageReport(ctx.db, ctx.principal.workspaceId, { ...filter, ...principal });
    }),
});
