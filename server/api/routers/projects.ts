import { listProjects } from '../../projects/list';
import { MAX_PROJECTS_PAGE, projectListSchema, projectsQuery } from '../../schemas/workspace';
import { operation } from '../operation';
import { router, workspaceProcedure } from '../trpc';

export const projectsRouter = router({
  list: workspaceProcedure('task:read', { projectKeys: true })
    .meta(
      operation('GET', '/projects', {
        summary: 'List projects',
        tag: 'Workspace',
        description:
          "The projects this key or app may reach, by slug: all of the workspace's, or the one it is limited to. Each comes " +
          "with the slug its paths take, its name, the prefix of its tasks' external IDs and its top-level tasks counted " +
          'by status category. Read on with `after` = `meta.nextCursor`.',
        errors: {
          400: ['after: must be a cursor from meta.nextCursor', `limit: must be a whole number from 1 to ${MAX_PROJECTS_PAGE}`],
        },
      }),
    )
    .input(projectsQuery)
    .output(projectListSchema)
    .query(({ ctx, input }) => listProjects(ctx.db, ctx.principal.workspaceId, ctx.principal.projectId, input)),
});
