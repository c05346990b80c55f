import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MAX_ATTACHMENTS_PER_TASK, MAX_FILENAME } from './attachment';
import {
  categorySchema,
  charCount,
  dateTime,
  dateTimeInput,
  hexColor,
  int32,
  MAX_INT4,
  MAX_NAME,
  nextCursor,
  prioritySchema,
  text,
  uuid,
} from './common';
import { labelSchema } from './lookups';

export const MAX_TITLE = 500;
export const MAX_DESCRIPTION = 100_000;
export const MAX_ASSIGNEES = 5;
export const MAX_LABELS = 50;
export const MAX_SEARCH = 200;
/** `<PREFIX>-<number>`: a prefix of at most 10 characters, a number within int4. */
export const MAX_EXTERNAL_ID = 21;
export const MAX_PAGE_SIZE = 100;
/** The subtasks a `task.deleted` event lists, by number (only the demo data has subtasks today). */
export const MAX_EVENT_SUBTASKS = 10_000;

export const taskStatusInlineSchema = z
  .object({ id: uuid(), name: z.string().max(MAX_NAME), color: hexColor().nullable(), category: categorySchema })
  .meta({ id: 'TaskStatusInline' });

export const assigneeSchema = z
  .object({ id: uuid().meta({ description: 'User ID' }), name: z.string().max(MAX_NAME).nullable() })
  .meta({ id: 'Assignee' });

export const attachmentRefSchema = z
  .object({ id: uuid(), filename: z.string().max(MAX_FILENAME) })
  .meta({ id: 'AttachmentRef', description: 'ID and filename; the full record comes from Get attachment' });

export const taskSchema = z
  .object({
    id: uuid(),
    externalId: z.string().max(MAX_EXTERNAL_ID).meta({ description: '`<PREFIX>-<number>`, unique within the project', example: 'WEB-12' }),
    title: z.string().max(MAX_TITLE),
    description: z.string().max(MAX_DESCRIPTION).nullable(),
    category: categorySchema,
    status: taskStatusInlineSchema.nullable(),
    priority: prioritySchema,
    dueDate: dateTime().nullable(),
    assignees: z.array(assigneeSchema).max(MAX_ASSIGNEES).meta({ description: 'By name, then id' }),
    labels: z.array(labelSchema).max(MAX_LABELS).meta({ description: 'By name, then id' }),
    attachments: z.array(attachmentRefSchema).max(MAX_ATTACHMENTS_PER_TASK).meta({ description: 'Oldest first' }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .meta({ id: 'Task' });

export const paginationSchema = z
  .object({
    total: int32(),
    page: int32(1),
    limit: int32(1).max(MAX_PAGE_SIZE),
    totalPages: int32().meta({ description: 'ceil(total / limit)' }),
    hasMore: z.boolean(),
    nextCursor: nextCursor()
      .nullable()
      .meta({
        description:
          'Extension: pass it as `after`, with the same query, to read on from the last task of this page (in change order, ' +
          '`sort=updatedAt&order=asc`, also to poll from the last page for what changes next). Null when there is nothing to ' +
          'read on from.',
      }),
  })
  .meta({ id: 'PaginationMeta' });

export const taskListSchema = z.object({ tasks: z.array(taskSchema).max(MAX_PAGE_SIZE), meta: paginationSchema }).meta({ id: 'TaskList' });

export const wholeNumber = (rule: string) =>
  z.number({ error: `must be a whole number ${rule}` }).int({ error: `must be a whole number ${rule}` });

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'dueDate', 'priority'] as const;

const CURSOR = 'must be a cursor from meta.nextCursor';
const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A place in an order by change time: (updatedAt or deletedAt, id). Times have the columns' millisecond precision, so exact. */
export interface ChangeCursor {
  at: Date;
  id: string;
}

export function encodeCursor(cursor: ChangeCursor): string {
  return Buffer.from(`${cursor.at.toISOString()} ${cursor.id}`).toString('base64url');
}

/** An opaque cursor (base64url of the time and the id), as encodeCursor wrote it. */
export const changeCursor = () =>
  z
    .string()
    .max(100, CURSOR)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR)
    .transform((value, context): ChangeCursor => {
      const match = CURSOR_TEXT.exec(Buffer.from(value, 'base64url').toString('latin1'));
      const at = new Date(match?.[1] ?? NaN);
      if (!match || Number.isNaN(at.getTime())) {
        context.addIssue({ code: 'custom', message: CURSOR });
        return z.NEVER;
      }
      return { at, id: match[2]! };
    })
    .meta({
      description: 'Extension: an opaque cursor from `meta.nextCursor`',
      example: 'MjAyNi0wMS0zMVQxNzowMDowMC4wMDBaIDBiN2YzYzVlLThhNTEtNGQ2ZS05YTNiLTVjMmYxZTdkOWE0MA',
    });

/**
 * A place in a list: the sort key of the last task answered and its id, and the
 * query it belongs to (a hash of the project, the filters, `sort` and `order`:
 * listQueryHash). Keys are exact: times as milliseconds since the epoch (the
 * columns' precision), priorities by name, a missing due date as `null`.
 */
export interface ListCursor {
  /** Null for a cursor of the first form, time and id, which the change order wrote before cursors named their query. */
  query: string | null;
  key: string;
  id: string;
}

const LIST_CURSOR_TEXT =
  /^v2 ([A-Za-z0-9_-]{16}) (-?\d{1,16}|null|none|low|medium|high|urgent) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(`v2 ${cursor.query} ${cursor.key} ${cursor.id}`).toString('base64url');
}

/** An opaque cursor of the task list, as encodeListCursor (or, in change order, encodeCursor) wrote it. */
export const listCursor = () =>
  z
    .string()
    .max(200, CURSOR)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR)
    .transform((value, context): ListCursor => {
      const text = Buffer.from(value, 'base64url').toString('latin1');
      const listed = LIST_CURSOR_TEXT.exec(text);
      if (listed) return { query: listed[1]!, key: listed[2]!, id: listed[3]! };
      const changed = CURSOR_TEXT.exec(text);
      const at = new Date(changed?.[1] ?? NaN);
      if (changed && !Number.isNaN(at.getTime())) return { query: null, key: String(at.getTime()), id: changed[2]! };
      context.addIssue({ code: 'custom', message: CURSOR });
      return z.NEVER;
    })
    .meta({
      description: 'Extension: an opaque cursor from `meta.nextCursor`',
      example: 'djIgcjNxWHlUYkU3a0FfQ2hHZiAxNzY0MDc2NDAwMDAwIDBiN2YzYzVlLThhNTEtNGQ2ZS05YTNiLTVjMmYxZTdkOWE0MA',
    });

/** The list's query; the API adds the project's path parameter. */
export const listTasksQuery = z.object({
  page: wholeNumber(`from 1 to ${MAX_INT4}`)
    .min(1, `must be a whole number from 1 to ${MAX_INT4}`)
    .max(MAX_INT4, `must be a whole number from 1 to ${MAX_INT4}`)
    .meta({
      format: 'int32',
      description:
        `Page number, from 1 to ${MAX_INT4} (PostgreSQL's int4). A deep page costs the server more with every page it ` +
        'skips; `after` costs the same at any depth',
    })
    .default(1),
  limit: wholeNumber('from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(MAX_PAGE_SIZE, 'must be a whole number from 1 to 100')
    .meta({ format: 'int32' })
    .default(20),
  // Described before `.optional()`: a description on the optional wrapper is lost from query parameters.
  statusId: uuid().meta({ description: 'Filter by custom status; takes precedence over `status`' }).optional(),
  status: categorySchema.meta({ description: 'Filter by category; ignored when `statusId` is given' }).optional(),
  priority: prioritySchema.optional(),
  search: text()
    .max(MAX_SEARCH, `must be at most ${MAX_SEARCH} characters`)
    .meta({ description: 'Case-insensitive substring of the title, or an external ID such as WEB-12' })
    .optional(),
  assigneeId: uuid().optional(),
  labelId: uuid().optional(),
  sort: z
    .enum(SORT_FIELDS, { error: `must be one of ${SORT_FIELDS.join(', ')}` })
    .default('createdAt')
    .meta({ description: 'Extension: sort field. Ties are broken by id.' }),
  order: z.enum(['asc', 'desc'], { error: 'must be one of asc, desc' }).default('desc').meta({ description: 'Extension: sort direction' }),
  updatedSince: dateTimeInput()
    .meta({ description: 'Extension: only tasks changed after this time (exclusive); ISO 8601 date-time with a time zone' })
    .optional(),
  after: listCursor()
    .meta({
      description:
        'Extension: the tasks after this place, from the `meta.nextCursor` of an earlier answer to the same query (the same ' +
        'project, filters, `sort` and `order`; `updatedSince` and `limit` may differ). Costs the same however deep; in change ' +
        'order (`sort=updatedAt&order=asc`) pages so read neither miss nor repeat a task while tasks change (see docs/polling.md)',
    })
    .optional(),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

/** Whether a list is in change order, where a cursor also finds the changes made after it was written. */
export const inChangeOrder = (query: Pick<ListTasksQuery, 'sort' | 'order'>) => query.sort === 'updatedAt' && query.order === 'asc';

/** What a cursor is bound to: the project and everything that decides the list's rows and order, but updatedSince (a poller drops it after its first poll). */
export function listQueryHash(query: Omit<ListTasksQuery, 'page' | 'limit' | 'after'> & { projectSlug: string }): string {
  const bound = [
    query.projectSlug,
    query.statusId?.toLowerCase() ?? '',
    query.statusId ? '' : (query.status ?? ''),
    query.priority ?? '',
    query.search ?? '',
    query.assigneeId?.toLowerCase() ?? '',
    query.labelId?.toLowerCase() ?? '',
    query.sort,
    query.order,
  ];
  return createHash('sha256').update(JSON.stringify(bound)).digest('base64url').slice(0, 16);
}

const SORT_KEY = {
  createdAt: /^-?\d+$/,
  updatedAt: /^-?\d+$/,
  dueDate: /^(-?\d+|null)$/,
  priority: /^(none|low|medium|high|urgent)$/,
} as const;

export const CURSOR_OF_ANOTHER_QUERY = 'belongs to another query: send it with the filters, sort and order of the answer that gave it';

/** Rules across the list's parameters, checked once each is valid alone. */
export function checkListQuery(query: ListTasksQuery & { projectSlug: string }, context: z.RefinementCtx): void {
  const { after } = query;
  // Refinements run even after a part failed: a cursor that did not parse was refused already.
  if (typeof after !== 'object') return;
  // A cursor of the first form belongs to the change order, whatever its filters.
  const belongs = after.query === null ? inChangeOrder(query) : after.query === listQueryHash(query);
  if (!belongs || !SORT_KEY[query.sort].test(after.key)) {
    context.addIssue({ code: 'custom', path: ['after'], message: CURSOR_OF_ANOTHER_QUERY });
  } else if (query.page !== 1) context.addIssue({ code: 'custom', path: ['after'], message: 'cannot be combined with page' });
}

const title = text()
  .transform((value) => value.trim())
  .refine((value) => charCount(value) >= 1 && charCount(value) <= MAX_TITLE, `must be 1 to ${MAX_TITLE} characters`)
  // JSON Schema counts code points too; `\S`: not whitespace alone.
  .meta({
    description: `1 to ${MAX_TITLE} characters; surrounding whitespace is removed`,
    example: 'Fix login form',
    minLength: 1,
    maxLength: MAX_TITLE,
    pattern: '\\S',
  });

const description = text()
  .refine((value) => charCount(value) <= MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`)
  .meta({ description: `Plain text, newlines preserved, at most ${MAX_DESCRIPTION} characters`, maxLength: MAX_DESCRIPTION });

const dueDate = dateTimeInput();

const idList = (max: number, what: string) =>
  z
    .array(uuid(), { error: 'must be an array of UUIDs' })
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
    .refine((ids) => ids.length <= max, `must hold at most ${max} ${what}`)
    .meta({ maxItems: max });

/** A new task's fields; the API adds the project's path parameter. */
export const createTaskFields = z.strictObject({
  title,
  description: description.nullable().optional(),
  priority: prioritySchema.optional().meta({ description: 'Defaults to `none`' }),
  dueDate: dueDate.nullable().optional(),
  statusId: uuid().optional().meta({ description: 'Defaults to the first status of category `todo`' }),
  assigneeIds: idList(MAX_ASSIGNEES, 'assignees')
    .optional()
    .meta({ description: `User IDs from the members list; at most ${MAX_ASSIGNEES}; duplicates count once` }),
  labelIds: idList(MAX_LABELS, 'labels')
    .optional()
    .meta({ description: `IDs from the labels list; at most ${MAX_LABELS}; duplicates count once` }),
});
export type CreateTaskFields = z.infer<typeof createTaskFields>;

/** The fields an update may change; the API adds the task's path parameters. */
export const updateTaskFields = z.strictObject({
  title: title.optional(),
  description: description.nullable().optional().meta({ description: 'null clears it' }),
  priority: prioritySchema.optional(),
  dueDate: dueDate.nullable().optional().meta({ description: 'null clears it' }),
  statusId: uuid().optional(),
  assigneeIds: idList(MAX_ASSIGNEES, 'assignees').optional().meta({ description: 'Replaces the whole list; [] removes all' }),
  labelIds: idList(MAX_LABELS, 'labels').optional().meta({ description: 'Replaces the whole list; [] removes all' }),
});
export type UpdateTaskFields = z.infer<typeof updateTaskFields>;

/** The most tasks one batch request creates or changes. */
export const MAX_BATCH = 100;
const batchOf = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: 'must be an array of tasks' })
    .min(1, `must hold 1 to ${MAX_BATCH} tasks`)
    .max(MAX_BATCH, `must hold 1 to ${MAX_BATCH} tasks`);

/** A batch of new tasks: each as a create's body. */
export const createTaskBatchFields = z.strictObject({
  tasks: batchOf(createTaskFields).meta({ description: `1 to ${MAX_BATCH} tasks, each as the body of Create a task` }),
});
export type CreateTaskBatchFields = z.infer<typeof createTaskBatchFields>;

/** One change of a batch update: the task, by UUID or external ID, and the fields of an update. */
export const taskChangeFields = updateTaskFields.extend({
  id: z
    .string({ error: 'must be a task UUID or external ID' })
    .min(1, 'must be a task UUID or external ID')
    .max(100, 'must be a task UUID or external ID')
    .meta({ description: 'Task UUID or external ID (case-insensitive)', example: 'WEB-12' }),
  ifMatch: z
    .string({ error: 'must be an entity tag' })
    .max(200, 'must be an entity tag')
    .meta({
      description: "Optional: the task's `ETag`, as the header If-Match of an update; the whole batch is refused with 412 if it changed",
    })
    .optional(),
});
export type TaskChangeFields = z.infer<typeof taskChangeFields>;

/** A batch of changes: each names its task and carries the fields of an update. */
export const updateTaskBatchFields = z.strictObject({
  tasks: batchOf(taskChangeFields).meta({
    description: `1 to ${MAX_BATCH} changes, each a task's \`id\` (or external ID) with the body of Update a task`,
  }),
});
export type UpdateTaskBatchFields = z.infer<typeof updateTaskBatchFields>;

export const taskBatchSchema = z
  .object({ tasks: z.array(taskSchema).max(MAX_BATCH).meta({ description: 'The tasks, in the order of the request' }) })
  .meta({ id: 'TaskBatch' });

export const MAX_DELETED_PAGE = 1_000;

/** The deleted-tasks list's query; the API adds the project's path parameter. */
export const deletedTasksQuery = z.object({
  since: dateTimeInput()
    .meta({ description: 'Only tasks deleted after this time (exclusive); ISO 8601 date-time with a time zone' })
    .optional(),
  after: changeCursor().meta({ description: 'The deletions after this place, from an earlier `meta.nextCursor`' }).optional(),
  limit: wholeNumber(`from 1 to ${MAX_DELETED_PAGE}`)
    .min(1, `must be a whole number from 1 to ${MAX_DELETED_PAGE}`)
    .max(MAX_DELETED_PAGE, `must be a whole number from 1 to ${MAX_DELETED_PAGE}`)
    .meta({ format: 'int32' })
    .default(100),
});
export type DeletedTasksQuery = z.infer<typeof deletedTasksQuery>;

export const deletedTaskSchema = z
  .object({
    id: uuid(),
    externalId: z.string().max(MAX_EXTERNAL_ID).meta({ example: 'WEB-12' }),
    deletedAt: dateTime(),
  })
  .meta({ id: 'DeletedTask' });

export const deletedTaskListSchema = z
  .object({
    deleted: z.array(deletedTaskSchema).max(MAX_DELETED_PAGE).meta({ description: 'Oldest deletion first' }),
    meta: z.object({
      hasMore: z.boolean(),
      nextCursor: nextCursor().nullable().meta({
        description: 'Pass it as `after` to read on (or to poll for later deletions); null when there is nothing to read on from',
      }),
    }),
  })
  .meta({ id: 'DeletedTaskList' });
