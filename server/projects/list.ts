import type { Db } from '../db/client';
import { encodeProjectCursor, type ProjectsQuery } from '../schemas/workspace';

interface Row {
  id: string;
  slug: string;
  name: string;
  keyPrefix: string;
  todo: number;
  in_progress: number;
  done: number;
}

/**
 * A page of the projects a key or app may reach, by slug: the workspace's, or the
 * one it is limited to. One statement, through the (workspace_id, slug) index; the
 * task counts are sums of the few `task_count` rows each project has, which the
 * triggers on task keep exact (migration 20261125170000_lists_at_scale).
 */
export async function listProjects(db: Db, workspaceId: string, onlyProjectId: string | null, query: ProjectsQuery) {
  const rows = await db.$queryRaw<Row[]>`
    SELECT p.id::text, p.slug, p.name, p.key_prefix AS "keyPrefix",
      coalesce(c.todo, 0)::int AS todo, coalesce(c.in_progress, 0)::int AS in_progress, coalesce(c.done, 0)::int AS done
    FROM project p
    LEFT JOIN LATERAL (
      SELECT sum(t.tasks) FILTER (WHERE t.category = 'todo') AS todo,
        sum(t.tasks) FILTER (WHERE t.category = 'in_progress') AS in_progress,
        sum(t.tasks) FILTER (WHERE t.category = 'done') AS done
      FROM task_count t WHERE t.project_id = p.id
    ) c ON true
    WHERE p.workspace_id = ${workspaceId}::uuid
      AND (${onlyProjectId}::uuid IS NULL OR p.id = ${onlyProjectId}::uuid)
      AND p.slug > ${query.after ?? ''}
    ORDER BY p.slug
    LIMIT ${query.limit + 1}::int`;
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    projects: page.map(({ todo, in_progress, done, ...project }) => ({
      ...project,
      taskCounts: { total: todo + in_progress + done, todo, in_progress, done },
    })),
    meta: { hasMore, nextCursor: hasMore ? encodeProjectCursor(page.at(-1)!.slug) : null },
  };
}
