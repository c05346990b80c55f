import { db } from '../../db/client';
import { reserveAnswerMemory } from '../answer-memory';
import { createTask } from '../../tasks/create';
import { deleteTask } from '../../tasks/delete';
import { getTask, TASK_NOT_FOUND } from '../../tasks/get';
import { listTasks } from '../../tasks/list';
import { updateTask } from '../../tasks/update';
import { removeStoredFiles } from '../../storage/storage';
import { recordedAnswer } from '../idempotency';
import { operation } from '../operation';
import { successSchema } from '../../schemas/common';
import { MAX_TITLE, taskListSchema, taskSchema } from '../../schemas/task';
import { createTaskInput, listTasksInput, taskInput, updateTaskInput } from '../inputs';
import { projectProcedure, router } from '../trpc';

const taskNotFound = { 404: [TASK_NOT_FOUND] };
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
        description: 'Top-level tasks only (subtasks are reachable by id). Newest first unless `sort`/`order` say otherwise.',
        errors: { 400: ['page: must be a whole number >= 1', 'limit: must be a whole number from 1 to 100', 'statusId: must be a UUID'] },
      }),
    )
    .input(listTasksInput)
    .output(taskListSchema)
    .query(({ ctx, input }) => listTasks(db(), ctx.project, input, (bytes) => reserveAnswerMemory(ctx.state, bytes))),

  get: projectProcedure('task:read')
    .meta(operation('GET', '/{projectSlug}/tasks/{taskId}', { summary: 'Get a task', tag: 'Tasks', errors: taskNotFound }))
    .input(taskInput)
    .output(taskSchema)
    .query(({ ctx, input }) => getTask(db(), ctx.project, input.taskId)),

  create: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks', {
        summary: 'Create a task',
        tag: 'Tasks',
        successStatus: 201,
        errors: badFields,
      }),
    )
    .input(createTaskInput)
    .output(taskSchema)
    .mutation(({ ctx, input }) => createTask(db(), ctx.principal.workspaceId, ctx.project, input, recordedAnswer(ctx.state, taskSchema))),

  update: projectProcedure('task:update')
    .meta(
      operation('PATCH', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Update a task',
        tag: 'Tasks',
        description: 'Only included fields change; null clears a nullable field; a list replaces the whole list.',
        errors: { ...badFields, ...taskNotFound },
      }),
    )
    .input(updateTaskInput)
    .output(taskSchema)
    .mutation(({ ctx, input }) =>
      updateTask(db(), ctx.principal.workspaceId, ctx.project, input.taskId, input, recordedAnswer(ctx.state, taskSchema)),
    ),

  delete: projectProcedure('task:update')
    .meta(
      operation('DELETE', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Delete a task',
        tag: 'Tasks',
        description: 'Permanently removes the task with its subtasks, comments and attachments.',
        errors: taskNotFound,
      }),
    )
    .input(taskInput)
    .output(successSchema)
    .mutation(async ({ ctx, input }) => {
      const files = await deleteTask(db(), ctx.project, input.taskId);
      removeStoredFiles(files);
      return { success: true as const };
    }),
});
