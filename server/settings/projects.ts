import { db } from '../db/client';
import { keyManagerProcedure, router } from './trpc';

/** The projects a key can be limited to. */
export const projectsRouter = router({
  list: keyManagerProcedure.query(({ ctx }) =>
    db().project.findMany({
      where: { workspaceId: ctx.workspace.id },
      select: { id: true, name: true },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
  ),
});
