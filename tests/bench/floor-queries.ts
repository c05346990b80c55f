import type pg from 'pg';
import { TASK_COLUMNS as PRODUCT_TASK_COLUMNS, type TaskRow } from '../../server/tasks/shape';

/**
 * The statements the product sends for a read, written out for plain pg: the
 * floor runs exactly these, so the ratio ours/floor is the cost of everything
 * but the database. Keep them in step with what `npm run bench` shows the
 * product sending (the statements column of the results JSON).
 */

export interface KeyRow {
  id: string;
  name: string;
  workspace_id: string;
  scopes: string[];
  project_id: string | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  /** The project named in the path, from the key's workspace; null when there is none. */
  project: ProjectRow | null;
}

export interface ProjectRow {
  id: string;
  slug: string;
  key_prefix: string;
}

export interface TaskFilter {
  category?: string;
  priority?: string;
  labelId?: string;
  /** Already escaped for LIKE. */
  titleContains?: string;
  number?: number;
}

/** The key by its hash and, in the same statement, the project the path names. */
export async function findKey(pool: pg.Pool, keyHash: string, slug: string): Promise<KeyRow | undefined> {
  const { rows } = await pool.query<KeyRow>(
    `SELECT k.id::text, k.name, k.workspace_id::text, k.scopes, k.project_id::text, k.revoked_at, k.expires_at,
       (SELECT jsonb_build_object('id', p.id, 'slug', p.slug, 'key_prefix', p.key_prefix)
        FROM project p WHERE p.workspace_id = k.workspace_id AND p.slug = $2) AS project
     FROM api_key k WHERE k.key_hash = $1`,
    [keyHash, slug],
  );
  return rows[0];
}

function filterSql(projectId: string, filter: TaskFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [projectId];
  const conditions = ['t.project_id = $1', 't.parent_id IS NULL'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(params.length));
  };
  if (filter.category) add((n) => `t.category = $${n}::"StatusCategory"`, filter.category);
  if (filter.priority) add((n) => `t.priority = $${n}::"Priority"`, filter.priority);
  if (filter.labelId) {
    add((n) => `EXISTS (SELECT 1 FROM task_label tl WHERE tl.label_id = $${n} AND tl.task_id = t.id)`, filter.labelId);
  }
  if (filter.titleContains !== undefined) {
    params.push(filter.titleContains);
    const title = `t.title ILIKE ('%' || $${params.length} || '%')`;
    if (filter.number === undefined) conditions.push(title);
    else add((n) => `(${title} OR t.number = $${n})`, filter.number);
  }
  return { where: conditions.join(' AND '), params };
}

// The product's own columns: the floor sends what the product sends.
const TASK_COLUMNS = PRODUCT_TASK_COLUMNS.sql;

/** The filter's total and one page's ids, as two subqueries of one statement, with the page's description bytes. */
export async function pageIds(
  pool: pg.Pool,
  projectId: string,
  filter: TaskFilter,
  limit: number,
  offset: number,
): Promise<{ ids: string[]; total: number }> {
  const { where, params } = filterSql(projectId, filter);
  // The product's statement, page size of the descriptions included (server/tasks/list.ts).
  const { rows } = await pool.query<{ ids: string[]; total: string }>(
    `SELECT page.total, page.ids::text[] AS ids,
       (SELECT coalesce(sum(octet_length(d.description)), 0) FROM task d WHERE d.id = ANY(page.ids)) AS bytes
     FROM (
       SELECT (SELECT count(*) FROM task t WHERE ${where}) AS total,
         ARRAY(SELECT t.id FROM task t WHERE ${where}
               ORDER BY t.created_at DESC, t.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) AS ids
       OFFSET 0
     ) page`,
    [...params, limit, offset],
  );
  return { ids: rows[0]!.ids, total: Number(rows[0]!.total) };
}

export async function tasksByIds(pool: pg.Pool, ids: string[]): Promise<TaskRow[]> {
  const { rows } = await pool.query<TaskRow>(
    `SELECT ${TASK_COLUMNS} FROM unnest($1::uuid[]) WITH ORDINALITY AS page(id, position) JOIN task t ON t.id = page.id ORDER BY page.position`,
    [ids],
  );
  return rows;
}

export async function taskByNumber(pool: pg.Pool, projectId: string, number: number): Promise<TaskRow[]> {
  const { rows } = await pool.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM task t WHERE t.project_id = $1 AND t.number = $2 LIMIT 1`, [
    projectId,
    number,
  ]);
  return rows;
}

export async function taskById(pool: pg.Pool, projectId: string, id: string): Promise<TaskRow[]> {
  const { rows } = await pool.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM task t WHERE t.project_id = $1 AND t.id = $2 LIMIT 1`, [
    projectId,
    id,
  ]);
  return rows;
}
