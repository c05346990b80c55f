import { z } from 'zod';
import { createUploadFields } from '../schemas/direct-upload';
import {
  checkListQuery,
  createTaskBatchFields,
  createTaskFields,
  deletedTasksQuery,
  listTasksQuery,
  updateTaskBatchFields,
  updateTaskFields,
} from '../schemas/task';
import { addCommentFields } from '../schemas/comment';
import { inlineFileFields } from '../schemas/attachment';
import { uuid } from '../schemas/common';
import { MAX_SLUG, SLUG_PATTERN } from '../schemas/workspace';

/**
 * The procedures' inputs: the resources' own fields and queries (server/schemas/),
 * with the path parameters that name the project, task and attachment.
 */
export const projectPath = {
  // The gate answers a slug no project has (404) before this is read: it only describes the path.
  projectSlug: z.string().max(MAX_SLUG).regex(SLUG_PATTERN).meta({ description: 'Slug of the project', example: 'web' }),
};

const TASK_ID = 'must be a task UUID or external ID';

export const taskPath = {
  ...projectPath,
  taskId: z.string().max(36, TASK_ID).meta({ description: 'Task UUID or external ID (case-insensitive)', example: 'WEB-12' }),
};

export const projectInput = z.object(projectPath);
export const taskInput = z.object(taskPath);
export const listTasksInput = listTasksQuery.extend(projectPath).superRefine(checkListQuery);
export const deletedTasksInput = deletedTasksQuery.extend(projectPath);
export const createTaskInput = createTaskFields.extend(projectPath);
export const updateTaskInput = updateTaskFields.extend(taskPath);
export const createTaskBatchInput = createTaskBatchFields.extend(projectPath);
export const updateTaskBatchInput = updateTaskBatchFields.extend(projectPath);
export const addCommentInput = addCommentFields.extend(taskPath);
export const createUploadInput = createUploadFields.extend(taskPath);
export const completeUploadInput = z.object({
  ...taskPath,
  uploadId: uuid().meta({ description: 'The `uploadId` the upload was created with', example: '5d0c9a3e-2f41-4b8e-9c6d-7a1b3e5f8d20' }),
});
export const getAttachmentInput = z.object({
  ...taskPath,
  attachmentId: uuid().meta({
    description: "Attachment UUID, as in the task's `attachments`",
    example: '0b7f3c5e-8a51-4d6e-9a3b-5c2f1e7d9a40',
  }),
});
/** An upload whose file comes as data (base64) with the call instead of a multipart body. */
export const uploadInlineInput = inlineFileFields.extend(taskPath);

/** An MCP write tool's retry key: the REST API's Idempotency-Key, as an argument of the call. */
export const idempotencyKeyArgument = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/)
  .meta({
    description:
      'Optional. 1 to 255 printable ASCII characters, unique per intended change: a call sent again with the same key and ' +
      "arguments within 24 hours answers what the first one did instead of writing twice (the REST API's Idempotency-Key)",
  });
