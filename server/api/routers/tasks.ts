import { createTask } from '../../tasks/create';
import { createTasks } from '../../tasks/create-batch';
import { updateTasks } from '../../tasks/update-batch';
import { deleteTask } from '../../tasks/delete';
import { getTask, TASK_NOT_FOUND } from '../../tasks/get';
import { listTasks } from '../../tasks/list';
import { listDeletedTasks } from '../../tasks/deleted';
import { updateTask } from '../../tasks/update';
import { TASK_CHANGED } from '../../tasks/etag';
import { ifMatch, ifMatchValue } from '../conditional';
import { removeStoredFiles } from '../../storage/storage';
import { recordedAnswer } from '../idempotency';
import { operation } from '../operation';
import { successSchema } from '../../schemas/common';
import {
  CURSOR_OF_ANOTHER_QUERY,
  MAX_BATCH,
  taskBatchSchema,
  deletedTaskListSchema,
  MAX_DELETED_PAGE,
  MAX_TITLE,
  taskListSchema,
  taskSchema,
} from '../../schemas/task';
import {
  createTaskBatchInput,
  createTaskInput,
  deletedTasksInput,
  listTasksInput,
  taskInput,
  updateTaskBatchInput,
  updateTaskInput,
} from '../inputs';
import { projectProcedure, router } from '../trpc';

const taskNotFound = { 404: [TASK_NOT_FOUND] };
const taskChanged = { 412: [TASK_CHANGED] };
const batchErrors = {
  400: [
    `tasks: must hold 1 to ${MAX_BATCH} tasks`,
    `tasks[<i>].title: must be 1 to ${MAX_TITLE} characters`,
    'tasks[<i>].statusId: <id> is not a status of project <slug>',
    'tasks[<i>].assigneeIds: <id> is not a member of this workspace',
    'tasks[<i>].labelIds: <id> is not a label available in project <slug>',
  ],
};
// A batch of the largest items: 100 tasks of 5 assignees and 50 labels hold about 6,500 values.
const BATCH_JSON_VALUES = 10_000;
const badFields = {
  400: [
    `title: must be 1 to ${MAX_TITLE} characters`,
    'statusId: <id> is not a status of project <slug>',
    'assigneeIds: <id> is not a member of this workspace',
    'labelIds: <id> is not a label available in project <slug>',
  ],
};

export const tasksRouter = router({
  list: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/tasks', {
        summary: 'List tasks',
        tag: 'Tasks',
        description:
          'Top-level tasks only (subtasks are reachable by id). Newest first unless `sort`/`order` say otherwise. ' +
          'To read on from any answer, send the same query with `after` = its `meta.nextCursor`: a page so reached costs ' +
          'the same however deep, where a deep `page` costs more with every page it skips. To poll for changes: ' +
          '`sort=updatedAt&order=asc` with `after`; pages so read neither miss nor repeat a task while tasks change.',
        errors: {
          400: [
            'page: must be a whole number >= 1',
            'limit: must be a whole number from 1 to 100',
            'statusId: must be a UUID',
            'updatedSince: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z',
            'after: must be a cursor from meta.nextCursor',
            `after: ${CURSOR_OF_ANOTHER_QUERY}`,
            'after: cannot be combined with page',
          ],
        },
      }),
    )
    .input(listTasksInput)
    .output(taskListSchema)
    .query(({ ctx, input }) => listTasks(ctx.db, ctx.project, input, (bytes) => ctx.state.answerMemory.reserve(bytes))),

  // Before `get`: routes match in registration order, and `deleted` would otherwise be read as a task id.
  deleted: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/tasks/deleted', {
        summary: 'List deleted tasks',
        tag: 'Tasks',
        description:
          'Extension: the tasks deleted in the last 30 days (subtasks deleted with their parent included), oldest deletion ' +
          'first, so a poller learns that a task it knew is gone. Read on with `after` = `meta.nextCursor`.',
        errors: {
          400: [
            'since: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z',
            'after: must be a cursor from meta.nextCursor',
            `limit: must be a whole number from 1 to ${MAX_DELETED_PAGE}`,
          ],
        },
      }),
    )
    .input(deletedTasksInput)
    .output(deletedTaskListSchema)
    .query(({ ctx, input }) => listDeletedTasks(ctx.db, ctx.project, input)),

  // Before `get` and `update`: `batch` would otherwise be read as a task id.
  createBatch: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks/batch', {
        summary: 'Create tasks',
        tag: 'Tasks',
        description:
          `Extension: creates 1 to ${MAX_BATCH} tasks, each as the body of Create a task, in one transaction: all or none. ` +
          'A refusal names the item by its index from 0 (`tasks[3].title: …`). The tasks are answered in the order sent, ' +
          'their numbers consecutive in that order; each sends its own `task.created` event. Counts as one request; ' +
          'the body is at most 1 MiB like any other.',
        successStatus: 201,
        errors: batchErrors,
        jsonValues: BATCH_JSON_VALUES,
      }),
    )
    .input(createTaskBatchInput)
    .output(taskBatchSchema)
    .mutation(({ ctx, input }) =>
      createTasks(ctx.db, ctx.principal.workspaceId, ctx.project, input.tasks, recordedAnswer(ctx.state, taskBatchSchema)),
    ),

  updateBatch: projectProcedure('task:update')
    .meta(
      operation('PATCH', '/{projectSlug}/tasks/batch', {
        summary: 'Update tasks',
        tag: 'Tasks',
        description:
          `Extension: changes 1 to ${MAX_BATCH} tasks in one transaction: all or none. Each item names its task by \`id\` ` +
          '(UUID or external ID) and carries the fields of Update a task, and optionally `ifMatch`, the ETag the task must ' +
          'still have (else 412 and nothing changes). A refusal names the item by its index from 0. Each task that changed ' +
          'sends its own `task.updated` event. Counts as one request.',
        errors: {
          400: [...batchErrors[400], 'tasks[<i>].id: names the same task as tasks[<j>]'],
          404: [`tasks[<i>].id: ${TASK_NOT_FOUND}`],
          412: [`tasks[<i>].ifMatch: ${TASK_CHANGED}`],
        },
        jsonValues: BATCH_JSON_VALUES,
      }),
    )
    .input(updateTaskBatchInput)
    .output(taskBatchSchema)
    .mutation(({ ctx, input }) =>
      updateTasks(
        ctx.db,
        ctx.principal.workspaceId,
        ctx.project,
        input.tasks.map((change) => ({ ...change, ifMatch: ifMatchValue(change.ifMatch) })),
        recordedAnswer(ctx.state, taskBatchSchema),
      ),
    ),

  get: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Get a task',
        tag: 'Tasks',
        description: "Answers with the task's `ETag`; with `If-None-Match` naming it, 304 Not Modified without a body.",
        errors: taskNotFound,
        etag: true,
        precondition: 'If-None-Match',
      }),
    )
    .input(taskInput)
    .output(taskSchema)
    .query(({ ctx, input }) => getTask(ctx.db, ctx.project, input.taskId)),

  create: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks', {
        summary: 'Create a task',
        tag: 'Tasks',
        description:
          "A top-level task, named by the project's next external ID (`WEB-43`), answered with its `ETag`; it sends a " +
          '`task.created` event.',
        successStatus: 201,
        errors: badFields,
        etag: true,
      }),
    )
    .input(createTaskInput)
    .output(taskSchema)
    .mutation(({ ctx, input }) => createTask(ctx.db, ctx.principal.workspaceId, ctx.project, input, recordedAnswer(ctx.state, taskSchema))),

  update: projectProcedure('task:update')
    .meta(
      operation('PATCH', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Update a task',
        tag: 'Tasks',
        description:
          'Only included fields change; null clears a nullable field; a list replaces the whole list. ' +
          'With `If-Match`, only if the task still has that `ETag` (else 412 and nothing changes).',
        errors: { ...badFields, ...taskNotFound, ...taskChanged },
        etag: true,
        precondition: 'If-Match',
      }),
    )
    .input(updateTaskInput)
    .output(taskSchema)
    .mutation(({ ctx, input }) =>
      updateTask(ctx.db, ctx.principal.workspaceId, ctx.project, input.taskId, input, {
        ifMatch: ifMatch(ctx.state.headers),
        inTransaction: recordedAnswer(ctx.state, taskSchema),
      }),
    ),

  delete: projectProcedure('task:update')
    .meta(
      operation('DELETE', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Delete a task',
        tag: 'Tasks',
        description:
          'Permanently removes the task with its subtasks, comments and attachments. ' +
          'With `If-Match`, only if the task still has that `ETag` (else 412 and nothing changes).',
        errors: { ...taskNotFound, ...taskChanged },
        precondition: 'If-Match',
      }),
    )
    .input(taskInput)
    .output(successSchema)
    .mutation(async ({ ctx, input }) => {
      const files = await deleteTask(ctx.db, ctx.project, input.taskId, ifMatch(ctx.state.headers));
      removeStoredFiles(files);
      return { success: true as const };
    }),
});
