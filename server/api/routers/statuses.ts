import { z } from 'zod';
import { db } from '../../db/client';
import { listStatuses } from '../../lookups/lookups';
import { operation } from '../operation';
import { projectPath } from '../schemas/common';
import { statusSchema } from '../schemas/lookups';
import { projectProcedure, router } from '../trpc';

export const statusesRouter = router({
  list: projectProcedure('task:read')
    .meta(operation('GET', '/{projectSlug}/statuses', { summary: 'List statuses', tag: 'Lookups', description: 'The project\'s statuses in display order.' }))
    .input(z.object(projectPath))
    .output(z.array(statusSchema))
    .query(({ ctx }) => listStatuses(db(), ctx.project)),
});
