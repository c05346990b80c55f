import { z } from 'zod';
import { listLabels } from '../../lookups/lookups';
import { operation } from '../operation';
import { projectInput } from '../inputs';
import { labelSchema, MAX_LABELS_PER_WORKSPACE } from '../../schemas/lookups';
import { projectProcedure, router } from '../trpc';

export const labelsRouter = router({
  list: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/labels', {
        summary: 'List labels',
        tag: 'Lookups',
        description: 'Workspace-wide labels plus the project-scoped labels assigned to this project, by name.',
      }),
    )
    .input(projectInput)
    .output(z.array(labelSchema).max(MAX_LABELS_PER_WORKSPACE))
    .query(({ ctx }) => listLabels(ctx.db, ctx.principal.workspaceId, ctx.project)),
});
