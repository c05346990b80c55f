import { z } from 'zod';
import { listStatuses } from '../../lookups/lookups';
import { operation } from '../operation';
import { projectInput } from '../inputs';
import { MAX_STATUSES_PER_PROJECT, statusSchema } from '../../schemas/lookups';
import { projectProcedure, router } from '../trpc';

export const statusesRouter = router({
  list: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/statuses', {
        summary: 'List statuses',
        tag: 'Lookups',
        description: "The project's statuses in display order.",
      }),
    )
    .input(projectInput)
    .output(z.array(statusSchema).max(MAX_STATUSES_PER_PROJECT))
    .query(({ ctx }) => listStatuses(ctx.db, ctx.project)),
});
