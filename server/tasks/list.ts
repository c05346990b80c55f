import type { ProjectRef } from '../projects/types';
import { encodeCursor, inChangeOrder, type ListTasksQuery } from '../schemas/task';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { externalIdNumber } from './locate';
import { loadTasks } from './load';
import { toTask } from './shape';

/**
 * Top-level tasks of a project, filtered, sorted and paginated, in three
 * statements whatever the page size (with the key lookup). One statement holds
 * the total and the page's ids as two subqueries, so each keeps its own plan (the
 * count may use the trigram index, the page the list index in order), and the
 * size of the page's descriptions, read from the row without its text; the next
 * loads those tasks with their relations, built only for the page, never for the
 * rows the OFFSET skips. A page of long descriptions first waits for room in the
 * response memory budget (`reserveMemory`). In change order (sort=updatedAt,
 * order=asc) the first statement also reads the page's change times, from which
 * `meta.nextCursor` is made: since changes are stamped in commit order (stamp.ts),
 * a poller reading on from it neither misses nor repeats a task.
 */
export async function listTasks(db: Db, project: ProjectRef, input: ListTasksQuery, reserveMemory: (bytes: number) => Promise<void>) {
  const filter = listFilter(project, input);
  const changeOrder = inChangeOrder(input);
  const pageIds = Prisma.sql`
    SELECT t.id FROM task t WHERE ${filter}
    ORDER BY ${listOrder(input)}
    LIMIT ${input.limit} OFFSET ${(input.page - 1) * input.limit}`;
  // In change order the page's times come from the same statement (one snapshot), for the cursor.
  const pageTimes = changeOrder
    ? Prisma.sql`ARRAY(SELECT t.updated_at FROM task t WHERE ${filter} ORDER BY ${listOrder(input)} LIMIT ${input.limit} OFFSET ${(input.page - 1) * input.limit})`
    : Prisma.sql`NULL::timestamptz[]`;
  // OFFSET 0 keeps the inner query whole: flattened, its ARRAY would be computed twice.
  const [found] = await db.$queryRaw<{ total: bigint; ids: string[]; times: Date[] | null; bytes: bigint }[]>`
    SELECT page.total, page.ids::text[] AS ids, page.times,
      (SELECT coalesce(sum(octet_length(d.description)), 0) FROM task d WHERE d.id = ANY(page.ids)) AS bytes
    FROM (
      SELECT
        (SELECT count(*) FROM task t WHERE ${filter}) AS total,
        ARRAY(${pageIds}) AS ids,
        ${pageTimes} AS times
      OFFSET 0
    ) page`;
  const total = Number(found?.total ?? 0);
  const ids = found?.ids ?? [];
  await reserveMemory(Number(found?.bytes ?? 0));
  let rows = await loadTasks(db, ids);
  const totalPages = Math.ceil(total / input.limit);
  const meta = { total, page: input.page, limit: input.limit, totalPages, hasMore: input.page < totalPages };
  if (!changeOrder) return { tasks: rows.map((row) => toTask(row, project.keyPrefix)), meta };

  const times = found?.times ?? [];
  // A task that changed between the two statements is left out: its new change time
  // is later than any this page saw, so it comes on a later page, once.
  const timeOf = new Map(ids.map((id, index) => [id, times[index]!.getTime()]));
  rows = rows.filter((row) => row.updated_at.getTime() === timeOf.get(row.id));
  const last = ids.length > 0 ? { at: times[ids.length - 1]!, id: ids[ids.length - 1]! } : input.after;
  return {
    tasks: rows.map((row) => toTask(row, project.keyPrefix)),
    meta: { ...meta, nextCursor: last ? encodeCursor(last) : null },
  };
}

function listFilter(project: ProjectRef, input: ListTasksQuery): Prisma.Sql {
  const conditions = [Prisma.sql`t.project_id = ${project.id}::uuid`, Prisma.sql`t.parent_id IS NULL`];
  if (input.statusId) conditions.push(Prisma.sql`t.status_id = ${input.statusId.toLowerCase()}::uuid`);
  else if (input.status) conditions.push(Prisma.sql`t.category = ${input.status}::"StatusCategory"`);
  if (input.priority) conditions.push(Prisma.sql`t.priority = ${input.priority}::"Priority"`);
  if (input.updatedSince) conditions.push(Prisma.sql`t.updated_at > ${input.updatedSince}`);
  if (input.after) conditions.push(Prisma.sql`(t.updated_at, t.id) > (${input.after.at}::timestamptz, ${input.after.id}::uuid)`);
  if (input.assigneeId) {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM task_assignee ta WHERE ta.task_id = t.id AND ta.user_id = ${input.assigneeId.toLowerCase()}::uuid)`,
    );
  }
  if (input.labelId) {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM task_label tl WHERE tl.task_id = t.id AND tl.label_id = ${input.labelId.toLowerCase()}::uuid)`,
    );
  }
  if (input.search) {
    // ILIKE on the title is served by the trigram index; wildcards typed by the client are plain characters.
    const title = Prisma.sql`t.title ILIKE ${`%${escapeLike(input.search)}%`}`;
    const number = externalIdNumber(project, input.search);
    conditions.push(number === null ? title : Prisma.sql`(${title} OR t.number = ${number})`);
  }
  return Prisma.join(conditions, ' AND ');
}

// Column and direction come from these fixed tables, never from the request's text.
const SORT_COLUMNS = {
  createdAt: Prisma.raw('t.created_at'),
  updatedAt: Prisma.raw('t.updated_at'),
  dueDate: Prisma.raw('t.due_date'),
  priority: Prisma.raw('t.priority'),
} as const;
const DIRECTIONS = { asc: Prisma.raw('ASC'), desc: Prisma.raw('DESC') } as const;

function listOrder(input: ListTasksQuery): Prisma.Sql {
  const direction = DIRECTIONS[input.order];
  // Tasks without a due date come last in both directions.
  const nulls = input.sort === 'dueDate' ? Prisma.raw(' NULLS LAST') : Prisma.empty;
  return Prisma.sql`${SORT_COLUMNS[input.sort]} ${direction}${nulls}, t.id ${direction}`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
