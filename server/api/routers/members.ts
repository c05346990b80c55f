import { z } from 'zod';
import { listMembers } from '../../lookups/lookups';
import { operation } from '../operation';
import { projectInput } from '../inputs';
import { MAX_MEMBERS_PER_WORKSPACE, memberSchema } from '../../schemas/lookups';
import { projectProcedure, router } from '../trpc';

export const membersRouter = router({
  list: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/members', {
        summary: 'List members',
        tag: 'Lookups',
        description: 'Members of the workspace, by name.',
      }),
    )
    .input(projectInput)
    .output(z.array(memberSchema).max(MAX_MEMBERS_PER_WORKSPACE))
    .query(({ ctx }) => listMembers(ctx.db, ctx.principal.workspaceId)),
});
