import pg from 'pg';
import { createDb } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { SCOPES } from '../../server/keys/scopes';
import { THINGS, VERBS } from '../../server/seed/demo';
import { FIXTURE_AUDIT } from '../support/fixtures';

export interface BenchProject {
  id: string;
  slug: string;
  prefix: string;
  /** Top-level tasks, numbered 1..topLevel; subtasks come after them. */
  topLevel: number;
  statusIds: string[];
}

export interface BenchFixture {
  workspaceId: string;
  big: BenchProject;
  small: BenchProject;
  /** A workspace-wide label, on about a third of the tasks. */
  labelId: string;
  apiKey: string;
}

const MEMBERS = 20;
const WORKSPACE_LABELS = 8;
const PROJECT_LABELS = 4;
const STATUSES = [
  ['To Do', 'todo', '#94a3b8'],
  ['In Progress', 'in_progress', '#3b82f6'],
  ['In Review', 'in_progress', '#a855f7'],
  ['Done', 'done', '#22c55e'],
] as const;

// A stable pseudo-random number per (row, salt), so every run seeds the same mix. Computed in bigint and
// taken modulo 2^31, so rows past 271,170 (the scale section's millions) do not overflow int4, and rows
// below it get the numbers they always got.
const HASH_FUNCTION = `
  CREATE FUNCTION pg_temp.h(n int, salt int) RETURNS bigint IMMUTABLE LANGUAGE sql
  AS $$ SELECT hashint4(((n::bigint * 7919 + salt) % 2147483648)::int)::bigint + 2147483648 $$`;

/**
 * Top-level tasks numbered 1..count, newest last, with a realistic mix: statuses
 * weighted towards done, priorities towards none/medium, 70% with a description,
 * 40% with a due date. $1 project, $2 count, $3 verbs, $4 things.
 */
const INSERT_TASKS = `
  WITH statuses AS (
    SELECT array_agg(id ORDER BY display_order) AS ids FROM status WHERE project_id = $1
  ), rows AS (
    SELECT g,
      ids[CASE WHEN pg_temp.h(g, 1) % 20 < 5 THEN 1 WHEN pg_temp.h(g, 1) % 20 < 9 THEN 2
               WHEN pg_temp.h(g, 1) % 20 < 11 THEN 3 ELSE 4 END] AS status_id
    FROM generate_series(1, $2::int) AS g, statuses
  )
  INSERT INTO task (id, project_id, number, title, description, category, status_id, priority, due_date, created_at, updated_at)
  SELECT gen_random_uuid(), $1, g,
    ($3::text[])[1 + pg_temp.h(g, 2) % cardinality($3::text[])] || ' '
      || ($4::text[])[1 + pg_temp.h(g, 3) % cardinality($4::text[])] || ' (part ' || g || ')',
    CASE WHEN pg_temp.h(g, 4) % 10 < 7
      THEN E'Steps to reproduce are in the linked ticket.\\nExpected: it works. Actual: it does not, on some devices.' END,
    status.category, status.id,
    (ARRAY['none','none','none','low','low','medium','medium','medium','high','urgent'])[1 + pg_temp.h(g, 5) % 10]::"Priority",
    CASE WHEN pg_temp.h(g, 6) % 10 < 4 THEN timestamptz '2026-06-01' + (pg_temp.h(g, 7) % 365) * interval '1 day' END,
    timestamptz '2025-01-01' + g * interval '2 minutes',
    timestamptz '2025-01-01' + g * interval '2 minutes' + (pg_temp.h(g, 8) % 100000) * interval '1 second'
  FROM rows JOIN status ON status.id = rows.status_id`;

/** One task in twenty gets one to three subtasks, numbered after the top-level tasks. $1 project, $2 count. */
const INSERT_SUBTASKS = `
  INSERT INTO task (id, project_id, number, title, category, status_id, priority, parent_id, created_at, updated_at)
  SELECT gen_random_uuid(), parent.project_id, $2::int + row_number() OVER (ORDER BY parent.number, k)::int,
    'Step ' || k || ': ' || parent.title, parent.category, parent.status_id, parent.priority, parent.id,
    parent.created_at + k * interval '1 second', parent.updated_at
  FROM task parent CROSS JOIN generate_series(1, 3) AS k
  WHERE parent.project_id = $1 AND parent.parent_id IS NULL
    AND pg_temp.h(parent.number, 9) % 20 = 0 AND k <= 1 + pg_temp.h(parent.number, 10) % 3`;

/** 0 to 3 assignees among the members, distinct by construction. $1 project, $2 member ids. */
const INSERT_ASSIGNEES = `
  INSERT INTO task_assignee (task_id, user_id)
  SELECT t.id, ($2::uuid[])[1 + (pg_temp.h(t.number, 11) + k * 7) % cardinality($2::uuid[])]
  FROM task t CROSS JOIN generate_series(1, 3) AS k
  WHERE t.project_id = $1 AND k <= pg_temp.h(t.number, 12) % 4`;

/** 0 to 4 of the labels available in the project, distinct by construction. $1 project, $2 label ids. */
const INSERT_LABELS = `
  INSERT INTO task_label (task_id, label_id)
  SELECT t.id, ($2::uuid[])[1 + (pg_temp.h(t.number, 13) + k * 3) % cardinality($2::uuid[])]
  FROM task t CROSS JOIN generate_series(1, 4) AS k
  WHERE t.project_id = $1 AND k <= pg_temp.h(t.number, 14) % 5`;

/** One task in five has one to three comments. $1 project. */
const INSERT_COMMENTS = `
  INSERT INTO comment (id, task_id, content, author_name, created_at, updated_at)
  SELECT gen_random_uuid(), t.id, 'Looked into this; notes ' || k || ' follow in the thread.', 'Bench seed',
    t.created_at + k * interval '1 hour', t.created_at + k * interval '1 hour'
  FROM task t CROSS JOIN generate_series(1, 3) AS k
  WHERE t.project_id = $1 AND pg_temp.h(t.number, 15) % 5 = 0 AND k <= 1 + pg_temp.h(t.number, 16) % 3`;

/** One task in twenty has an attachment record (no stored bytes: only downloads would need them). $1 project. */
const INSERT_ATTACHMENTS = `
  INSERT INTO attachment (id, task_id, filename, mime_type, size, storage_key, created_at)
  SELECT gen_random_uuid(), t.id, 'spec-' || t.number || '.pdf', 'application/pdf', 20000 + pg_temp.h(t.number, 17) % 500000,
    'bench-' || t.id, t.created_at
  FROM task t WHERE t.project_id = $1 AND pg_temp.h(t.number, 18) % 20 = 0`;

async function insertProject(
  client: pg.Client,
  workspaceId: string,
  spec: { slug: string; name: string; prefix: string; topLevel: number },
  memberIds: string[],
  workspaceLabelIds: string[],
): Promise<BenchProject> {
  const {
    rows: [project],
  } = await client.query<{ id: string }>(
    `INSERT INTO project (id, workspace_id, slug, name, key_prefix) VALUES (gen_random_uuid(), $1, $2, $3, $4) RETURNING id`,
    [workspaceId, spec.slug, spec.name, spec.prefix],
  );
  const projectId = project!.id;
  const statusIds: string[] = [];
  for (const [order, [name, category, color]] of STATUSES.entries()) {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO status (id, project_id, name, color, category, display_order) VALUES (gen_random_uuid(), $1, $2, $3, $4, $5) RETURNING id`,
      [projectId, name, color, category, order],
    );
    statusIds.push(rows[0]!.id);
  }
  const { rows: projectLabels } = await client.query<{ id: string }>(
    `INSERT INTO label (id, workspace_id, name, color, scope)
     SELECT gen_random_uuid(), $1, $2 || ' ' || g, '#f97316', 'project' FROM generate_series(1, $3::int) g RETURNING id`,
    [workspaceId, `${spec.prefix} area`, PROJECT_LABELS],
  );
  await client.query(`INSERT INTO project_label (project_id, label_id) SELECT $1, unnest($2::uuid[])`, [
    projectId,
    projectLabels.map((l) => l.id),
  ]);
  const labelIds = [...workspaceLabelIds, ...projectLabels.map((l) => l.id)];

  await client.query(INSERT_TASKS, [projectId, spec.topLevel, VERBS, THINGS]);
  await client.query(INSERT_SUBTASKS, [projectId, spec.topLevel]);
  await client.query(INSERT_ASSIGNEES, [projectId, memberIds]);
  await client.query(INSERT_LABELS, [projectId, labelIds]);
  await client.query(INSERT_COMMENTS, [projectId]);
  await client.query(INSERT_ATTACHMENTS, [projectId]);
  await client.query(`UPDATE project SET task_counter = (SELECT coalesce(max(number), 0) FROM task WHERE project_id = $1) WHERE id = $1`, [
    projectId,
  ]);
  return { id: projectId, slug: spec.slug, prefix: spec.prefix, topLevel: spec.topLevel, statusIds };
}

/**
 * One workspace with 20 members and 8 workspace-wide labels; project `big` with
 * `bigTasks` top-level tasks (so page 2,000 of 50 is the last full page) plus
 * subtasks, and project `small` with 1,000; then one API key with every scope.
 * Everything is INSERT … SELECT over generate_series: seconds, not minutes.
 */
export async function seedBench(url: string, sizes: { bigTasks: number; smallTasks: number }): Promise<BenchFixture> {
  const seeded = await seedWorkspace(url, [
    { slug: 'big', name: 'Big Project', prefix: 'BIG', topLevel: sizes.bigTasks },
    { slug: 'small', name: 'Small Project', prefix: 'SML', topLevel: sizes.smallTasks },
  ]);
  const [big, small] = seeded.projects;
  return { workspaceId: seeded.workspaceId, big: big!, small: small!, labelId: seeded.labelId, apiKey: seeded.apiKey };
}

export interface SeededWorkspace {
  workspaceId: string;
  projects: BenchProject[];
  /** A workspace-wide label, on about a third of the tasks. */
  labelId: string;
  /** A member, assigned to about a tenth of the tasks. */
  memberId: string;
  apiKey: string;
}

/** The bench's workspace with these projects, vacuumed and analyzed, and an API key with every scope. */
export async function seedWorkspace(
  url: string,
  specs: { slug: string; name: string; prefix: string; topLevel: number }[],
): Promise<SeededWorkspace> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let fixture: Omit<SeededWorkspace, 'apiKey'>;
  try {
    await client.query(HASH_FUNCTION);
    await client.query('BEGIN');
    const {
      rows: [workspace],
    } = await client.query<{ id: string }>(
      `INSERT INTO workspace (id, slug, name) VALUES (gen_random_uuid(), 'bench', 'Bench Workspace') RETURNING id`,
    );
    const workspaceId = workspace!.id;
    const { rows: members } = await client.query<{ id: string }>(
      `INSERT INTO "user" (id, name, email)
       SELECT gen_random_uuid(), 'Member ' || lpad(g::text, 2, '0'), 'member' || g || '@bench.test' FROM generate_series(1, $1::int) g
       RETURNING id`,
      [MEMBERS],
    );
    const memberIds = members.map((m) => m.id);
    await client.query(`INSERT INTO membership (workspace_id, user_id) SELECT $1, unnest($2::uuid[])`, [workspaceId, memberIds]);
    const { rows: labels } = await client.query<{ id: string }>(
      `INSERT INTO label (id, workspace_id, name, color)
       SELECT gen_random_uuid(), $1, (ARRAY['bug','feature','chore','docs','design','backend','frontend','infra'])[g], '#ef4444'
       FROM generate_series(1, $2::int) g RETURNING id`,
      [workspaceId, WORKSPACE_LABELS],
    );
    const labelIds = labels.map((l) => l.id);
    const projects: BenchProject[] = [];
    for (const spec of specs) projects.push(await insertProject(client, workspaceId, spec, memberIds, labelIds));
    await client.query('COMMIT');
    // Fresh tables have no statistics and no visibility map: give the planner what production would have.
    await client.query('VACUUM ANALYZE');
    fixture = { workspaceId, projects, labelId: labelIds[0]!, memberId: memberIds[0]! };
  } finally {
    await client.end();
  }

  const db = createDb(url, 1);
  try {
    const key = await createApiKey(
      db,
      fixture.workspaceId,
      { name: 'bench', scopes: [...SCOPES], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    return { ...fixture, apiKey: key.key };
  } finally {
    await db.$disconnect();
  }
}
