import type pg from 'pg';

/**
 * The statements the product sends for a read, written out for plain pg: the
 * floor runs exactly these, so the ratio ours/floor is the cost of everything
 * but the database. Keep them in step with what `npm run bench` shows the
 * product sending (the statements column of the results JSON).
 */

export interface KeyRow {
  id: string;
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
    `SELECT k.id, k.name, k.workspace_id, k.scopes, k.project_id, k.revoked_at, k.expires_at,
       (SELECT jsonb_build_object('id', p.id, 'slug', p.slug, 'key_prefix', p.key_prefix)
        FROM project p WHERE p.workspace_id = k.workspace_id AND p.slug = $2) AS project
     FROM api_key k WHERE k.key_hash = $1 LIMIT 1`,
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

export interface TaskRow {
  id: string;
  number: number;
  title: string;
  description: string | null;
  category: string;
  priority: string;
  due_date: Date | null;
  created_at: Date;
  updated_at: Date;
  status: { id: string; name: string; color: string | null; category: string } | null;
  assignees: { id: string; name: string }[];
  labels: { id: string; name: string; color: string }[];
  attachments: { id: string; filename: string }[];
}

/** A task with its relations as JSON built by the database, as the product's single statement does. */
const TASK_COLUMNS = `t.id, t.number, t.title, t.description, t.category::text, t.priority::text, t.due_date, t.created_at, t.updated_at,
  (SELECT jsonb_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category)
   FROM status s WHERE s.project_id = t.project_id AND s.id = t.status_id) AS status,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', u.id, 'name', u.name) ORDER BY u.name), '[]')
   FROM task_assignee ta JOIN "user" u ON u.id = ta.user_id WHERE ta.task_id = t.id) AS assignees,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY l.name), '[]')
   FROM task_label tl JOIN label l ON l.id = tl.label_id WHERE tl.task_id = t.id) AS labels,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'filename', a.filename) ORDER BY a.created_at, a.id), '[]')
   FROM attachment a WHERE a.task_id = t.id) AS attachments`;

/** The filter's total and one page's ids, as two subqueries of one statement. */
export async function pageIds(
  pool: pg.Pool,
  projectId: string,
  filter: TaskFilter,
  limit: number,
  offset: number,
): Promise<{ ids: string[]; total: number }> {
  const { where, params } = filterSql(projectId, filter);
  const { rows } = await pool.query<{ ids: string[]; total: string }>(
    `SELECT (SELECT count(*) FROM task t WHERE ${where}) AS total,
       ARRAY(SELECT t.id::text FROM task t WHERE ${where}
             ORDER BY t.created_at DESC, t.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) AS ids`,
    [...params, limit, offset],
  );
  return { ids: rows[0]!.ids, total: Number(rows[0]!.total) };
}

export async function tasksByIds(pool: pg.Pool, ids: string[]): Promise<TaskRow[]> {
  const { rows } = await pool.query<TaskRow>(
    `SELECT ${TASK_COLUMNS} FROM task t WHERE t.id = ANY($1::uuid[]) ORDER BY t.created_at DESC, t.id DESC`,
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
