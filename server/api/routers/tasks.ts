import { db } from '../../db/client';
import { reserveAnswerMemory } from '../../http/answer-memory';
import { createTask } from '../../tasks/create';
import { deleteTask } from '../../tasks/delete';
import { getTask } from '../../tasks/get';
import { listTasks } from '../../tasks/list';
import { updateTask } from '../../tasks/update';
import { removeStoredFiles } from '../../storage/storage';
import { operation } from '../operation';
import { successSchema } from '../schemas/common';
import { createTaskInput, getTaskInput, listTasksInput, taskListSchema, taskSchema, updateTaskInput } from '../schemas/task';
import { projectProcedure, router } from '../trpc';

const taskNotFound = { 404: 'Project or task not found' };

export const tasksRouter = router({
  list: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/tasks', {
        summary: 'List tasks',
        tag: 'Tasks',
        description: 'Top-level tasks only (subtasks are reachable by id). Newest first unless `sort`/`order` say otherwise.',
        errors: { 400: 'Invalid query parameter' },
      }),
    )
    .input(listTasksInput)
    .output(taskListSchema)
    .query(({ ctx, input }) => listTasks(db(), ctx.project, input, (bytes) => reserveAnswerMemory(ctx.state, bytes))),

  get: projectProcedure('task:read')
    .meta(operation('GET', '/{projectSlug}/tasks/{taskId}', { summary: 'Get a task', tag: 'Tasks', errors: taskNotFound }))
    .input(getTaskInput)
    .output(taskSchema)
    .query(({ ctx, input }) => getTask(db(), ctx.project, input.taskId)),

  create: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks', {
        summary: 'Create a task',
        tag: 'Tasks',
        successStatus: 201,
        errors: { 400: 'Invalid body field, unknown field, or an id that is not usable in this project' },
      }),
    )
    .input(createTaskInput)
    .output(taskSchema)
    .mutation(({ ctx, input }) => createTask(db(), ctx.principal.workspaceId, ctx.project, input)),

  update: projectProcedure('task:update')
    .meta(
      operation('PATCH', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Update a task',
        tag: 'Tasks',
        description: 'Only included fields change; null clears a nullable field; a list replaces the whole list.',
        errors: { 400: 'Invalid body field, unknown field, or an id that is not usable in this project', ...taskNotFound },
      }),
    )
    .input(updateTaskInput)
    .output(taskSchema)
    .mutation(({ ctx, input }) => updateTask(db(), ctx.principal.workspaceId, ctx.project, input)),

  delete: projectProcedure('task:update')
    .meta(
      operation('DELETE', '/{projectSlug}/tasks/{taskId}', {
        summary: 'Delete a task',
        tag: 'Tasks',
        description: 'Permanently removes the task with its subtasks, comments and attachments.',
        errors: taskNotFound,
      }),
    )
    .input(getTaskInput)
    .output(successSchema)
    .mutation(async ({ ctx, input }) => {
      const files = await deleteTask(db(), ctx.project, input.taskId);
      removeStoredFiles(files);
      return { success: true as const };
    }),
});
