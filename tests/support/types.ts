import type { z } from 'zod';
import type { attachmentSchema } from '../../server/schemas/attachment';
import type { auditEventListSchema } from '../../server/schemas/audit';
import type { commentSchema } from '../../server/schemas/comment';
import type { errorSchema, successSchema } from '../../server/schemas/common';
import type { directUploadSchema } from '../../server/schemas/direct-upload';
import type { labelSchema, memberSchema, statusSchema } from '../../server/schemas/lookups';
import type { requestListSchema } from '../../server/schemas/request-log';
import type { deletedTaskListSchema, taskBatchSchema, taskListSchema, taskSchema } from '../../server/schemas/task';
import type { usageSchema } from '../../server/schemas/usage';
import type { projectListSchema } from '../../server/schemas/workspace';
import type { meSchema } from '../../server/auth/whoami';

/** The public API's answers as the tests read them: the response schemas' own types. */
export type Task = z.output<typeof taskSchema>;
export type TaskList = z.output<typeof taskListSchema>;
export type TaskBatch = z.output<typeof taskBatchSchema>;
export type DeletedTaskList = z.output<typeof deletedTaskListSchema>;
export type Comment = z.output<typeof commentSchema>;
export type Attachment = z.output<typeof attachmentSchema>;
export type DirectUpload = z.output<typeof directUploadSchema>;
export type Status = z.output<typeof statusSchema>;
export type Label = z.output<typeof labelSchema>;
export type Member = z.output<typeof memberSchema>;
export type Success = z.output<typeof successSchema>;
export type ApiError = z.output<typeof errorSchema>;
export type AuditEventList = z.output<typeof auditEventListSchema>;
export type RequestList = z.output<typeof requestListSchema>;
export type RequestRecord = RequestList['requests'][number];
export type Usage = z.output<typeof usageSchema>;
export type Me = z.output<typeof meSchema>;
export type ProjectList = z.output<typeof projectListSchema>;

type Query = '' | `?${string}`;

/** The success body of a GET of `path`, by the operation its shape names; `unknown` for anything else. */
export type GetBody<P extends string> = P extends `/me${Query}`
  ? Me
  : P extends `/projects${Query}`
    ? ProjectList
    : P extends `/audit-events${Query}`
      ? AuditEventList
      : P extends `/requests${string}`
        ? RequestList
        : P extends `/usage${string}`
          ? Usage
          : P extends `/${string}/tasks/deleted${Query}`
            ? DeletedTaskList
            : P extends `/${string}/tasks/${string}/comments${Query}`
              ? Comment[]
              : P extends `/${string}/tasks/${string}/attachments/${string}`
                ? Attachment
                : P extends `/${string}/tasks/${string}`
                  ? Task
                  : P extends `/${string}/tasks${Query}`
                    ? TaskList
                    : P extends `/${string}/statuses${Query}`
                      ? Status[]
                      : P extends `/${string}/labels${Query}`
                        ? Label[]
                        : P extends `/${string}/members${Query}`
                          ? Member[]
                          : unknown;

/** The success body of a POST to `path`. */
export type PostBody<P extends string> = P extends `/${string}/tasks/batch`
  ? TaskBatch
  : P extends `/${string}/tasks/${string}/comments`
    ? Comment
    : P extends `/${string}/tasks/${string}/attachments/uploads/${string}/complete`
      ? Attachment
      : P extends `/${string}/tasks/${string}/attachments/uploads`
        ? DirectUpload
        : P extends `/${string}/tasks/${string}/attachments`
          ? Attachment
          : P extends `/${string}/tasks`
            ? Task
            : unknown;

/** The success body of a PATCH of `path`. */
export type PatchBody<P extends string> = P extends `/${string}/tasks/batch`
  ? TaskBatch
  : P extends `/${string}/tasks/${string}`
    ? Task
    : unknown;

/** The success body of a DELETE of `path`. */
export type DeleteBody<P extends string> = P extends `/${string}/tasks/${string}` ? Success : unknown;
