import { z } from 'zod';
import { addComment, listComments, TOO_MANY_COMMENTS } from '../../comments/comments';
import { TASK_NOT_FOUND } from '../../tasks/get';
import { recordedAnswer } from '../idempotency';
import { operation } from '../operation';
import { commentSchema, MAX_COMMENT, MAX_COMMENTS_PER_TASK } from '../../schemas/comment';
import { addCommentInput, taskInput } from '../inputs';
import { projectProcedure, router } from '../trpc';

export const commentsRouter = router({
  list: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/tasks/{taskId}/comments', {
        summary: 'List comments',
        tag: 'Comments',
        description: `Oldest first, all of them: a task has at most ${MAX_COMMENTS_PER_TASK} comments.`,
        errors: { 404: [TASK_NOT_FOUND] },
      }),
    )
    .input(taskInput)
    .output(z.array(commentSchema).max(MAX_COMMENTS_PER_TASK))
    .query(({ ctx, input }) => listComments(ctx.db, ctx.project, input.taskId, (bytes) => ctx.state.answerMemory.reserve(bytes))),

  add: projectProcedure('task:update')
    .meta(
      operation('POST', '/{projectSlug}/tasks/{taskId}/comments', {
        summary: 'Add a comment',
        tag: 'Comments',
        description: `Attributed to the name of the API key (\`authorName\`). A task takes at most ${MAX_COMMENTS_PER_TASK} comments.`,
        successStatus: 201,
        errors: {
          400: [`content: must be 1 to ${MAX_COMMENT} characters`, 'content: must contain a non-space character'],
          404: [TASK_NOT_FOUND],
          409: [TOO_MANY_COMMENTS],
        },
      }),
    )
    .input(addCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) =>
      addComment(ctx.db, ctx.principal, ctx.project, input.taskId, input.content, recordedAnswer(ctx.state, commentSchema)),
    ),
});
