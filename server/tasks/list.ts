import type { ProjectRef } from '../projects/types';
import { encodeListCursor, inChangeOrder, listQueryHash, type ListCursor, type ListTasksQuery } from '../schemas/task';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { externalIdNumber } from './locate';
import { loadTasks } from './load';
import { toTask } from './shape';
import { remember, totalColumns } from './totals';

export type ListTasksInput = ListTasksQuery & { projectSlug: string };

/**
 * Top-level tasks of a project, filtered, sorted and paginated, in three
 * statements whatever the page size (with the key lookup). One statement holds
 * the total (totals.ts: maintained counts, or a count this process made under
 * the project's current change time) and the page's ids with their sort keys as
 * two subqueries, so each keeps its own plan, and the size of the page's descriptions, read from the row
 * without its text; the next loads those tasks with their relations, built only
 * for the page, never for the rows an OFFSET skips. A page of long descriptions
 * first waits for room in the response memory budget (`reserveMemory`).
 *
 * Every answer carries `meta.nextCursor`, the last task's sort key and id: `after`
 * reads on from there by the order's index (keyset), at the cost of the first page
 * however deep. In change order (sort=updatedAt, order=asc) changes are stamped in
 * commit order (stamp.ts), so a poller reading on from it neither misses nor
 * repeats a task.
 */
export async function listTasks(db: Db, project: ProjectRef, input: ListTasksInput, reserveMemory: (bytes: number) => Promise<void>) {
  const filter = listFilter(project, input);
  const order = sortOrder(input);
  const place = input.after
    ? Prisma.sql` AND (${order.key}, t.id) ${order.after} (${order.keyOf(input.after)}, ${input.after.id}::uuid)`
    : Prisma.empty;
  // One row more than the page says whether another follows. The inner query reads only the
  // order's column and the id, so the rows an OFFSET skips cost an index entry each; the key's
  // text is built for the page alone (built for every skipped row, it doubled a deep page's time).
  const page = Prisma.sql`
    SELECT ${order.keyText} || ' ' || t.id::text FROM (
      SELECT t.id, ${order.column} FROM task t WHERE ${filter}${place}
      ORDER BY ${order.key} ${order.direction}, t.id ${order.direction}
      LIMIT ${input.limit + 1} OFFSET ${(input.page - 1) * input.limit}) t
    ORDER BY ${order.key} ${order.direction}, t.id ${order.direction}`;
  // OFFSET 0 keeps the inner query whole: flattened, its ARRAY would be computed twice.
  const [found] = await db.$queryRaw<{ total: bigint; stamp: Date | null; entries: string[]; bytes: bigint }[]>`
    SELECT page.total, page.stamp, page.entries,
      (SELECT coalesce(sum(octet_length(d.description)), 0) FROM task d
       WHERE d.id = ANY(ARRAY(SELECT split_part(e, ' ', 2)::uuid FROM unnest(page.entries[1:${input.limit}]) e))) AS bytes
    FROM (
      SELECT ${totalColumns(project, input, filter)}, ARRAY(${page}) AS entries
      OFFSET 0
    ) page`;
  const entries = (found?.entries ?? []).map((entry) => entry.split(' ') as [string, string]);
  const hasMore = entries.length > input.limit;
  const listed = entries.slice(0, input.limit);
  const ids = listed.map(([, id]) => id);
  await reserveMemory(Number(found?.bytes ?? 0));
  let rows = await loadTasks(db, ids);
  if (inChangeOrder(input)) {
    // A task that changed between the two statements is left out: its new change time
    // is later than any this page saw, so it comes on a later page, once.
    const timeOf = new Map(listed.map(([key, id]) => [id, Number(key)]));
    rows = rows.filter((row) => row.updated_at.getTime() === timeOf.get(row.id));
  }
  const total = Number(found?.total ?? 0);
  remember(project, input, found?.stamp ?? null, total);
  const query = listQueryHash(input);
  const last = listed.at(-1);
  const next: ListCursor | undefined = last ? { query, key: last[0], id: last[1] } : input.after && { ...input.after, query };
  return {
    tasks: rows.map((row) => toTask(row, project.keyPrefix)),
    meta: {
      total,
      page: input.page,
      limit: input.limit,
      totalPages: Math.ceil(total / input.limit),
      hasMore,
      nextCursor: next ? encodeListCursor(next) : null,
    },
  };
}

function listFilter(project: ProjectRef, input: ListTasksQuery): Prisma.Sql {
  const conditions = [Prisma.sql`t.project_id = ${project.id}::uuid`, Prisma.sql`t.parent_id IS NULL`];
  if (input.statusId) conditions.push(Prisma.sql`t.status_id = ${input.statusId.toLowerCase()}::uuid`);
  else if (input.status) conditions.push(Prisma.sql`t.category = ${input.status}::"StatusCategory"`);
  if (input.priority) conditions.push(Prisma.sql`t.priority = ${input.priority}::"Priority"`);
  if (input.updatedSince) conditions.push(Prisma.sql`t.updated_at > ${input.updatedSince}`);
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

interface SortOrder {
  /** The column the order reads. */
  column: Prisma.Sql;
  /** The sort key as the order's index holds it. */
  key: Prisma.Sql;
  /** The key as a cursor writes it, exactly. */
  keyText: Prisma.Sql;
  /** The key a cursor names, as a value to compare `key` with. */
  keyOf: (cursor: ListCursor) => Prisma.Sql;
  direction: Prisma.Sql;
  /** The comparison that finds the rows after a place in this order. */
  after: Prisma.Sql;
}

const millis = (column: Prisma.Sql) => Prisma.sql`(extract(epoch FROM ${column}) * 1000)::bigint::text`;
const fromMillis = (key: string) => Prisma.sql`(timestamptz 'epoch' + ${BigInt(key)}::bigint * interval '1 millisecond')`;

// Columns and directions come from these fixed tables, never from the request's text.
function sortOrder(input: ListTasksQuery): SortOrder {
  const ascending = input.order === 'asc';
  const direction = Prisma.raw(ascending ? 'ASC' : 'DESC');
  const after = Prisma.raw(ascending ? '>' : '<');
  switch (input.sort) {
    case 'createdAt':
    case 'updatedAt': {
      const key = Prisma.raw(input.sort === 'createdAt' ? 't.created_at' : 't.updated_at');
      return { column: key, key, keyText: millis(key), keyOf: (cursor) => fromMillis(cursor.key), direction, after };
    }
    case 'dueDate': {
      // Tasks without a due date come last in both directions: as the end of time
      // that the order reaches last, so the key is one value the index holds.
      const last = Prisma.raw(ascending ? `'infinity'::timestamptz` : `'-infinity'::timestamptz`);
      return {
        column: Prisma.raw('t.due_date'),
        key: Prisma.sql`coalesce(t.due_date, ${last})`,
        keyText: Prisma.sql`coalesce(${millis(Prisma.raw('t.due_date'))}, 'null')`,
        keyOf: (cursor) => (cursor.key === 'null' ? last : fromMillis(cursor.key)),
        direction,
        after,
      };
    }
    case 'priority':
      return {
        column: Prisma.raw('t.priority'),
        key: Prisma.raw('t.priority'),
        keyText: Prisma.raw('t.priority::text'),
        keyOf: (cursor) => Prisma.sql`${cursor.key}::"Priority"`,
        direction,
        after,
      };
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
