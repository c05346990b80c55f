import { z } from 'zod';
import { charCount, dateTime, MAX_NAME, text, uuid } from './common';

export const MAX_COMMENT = 10_000;
/**
 * Comments a task may have: the list of a task's comments is answered whole (the
 * contract has no pages for it), so its size must have a bound: 1,000 of the
 * longest comments are 10 MB of text, 40 MB at most in UTF-8.
 */
export const MAX_COMMENTS_PER_TASK = 1_000;

export const commentSchema = z
  .object({
    id: uuid(),
    content: z.string().max(MAX_COMMENT),
    authorName: z.string().max(MAX_NAME).nullable().meta({ description: 'Name of the API key that posted it; null for members' }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .meta({ id: 'Comment' });

/** A comment's fields; the API adds the task's path parameters. */
export const addCommentFields = z.strictObject({
  content: text()
    .refine((value) => charCount(value) >= 1 && charCount(value) <= MAX_COMMENT, {
      message: `must be 1 to ${MAX_COMMENT} characters`,
      abort: true,
    })
    .refine((value) => value.trim().length > 0, 'must contain a non-space character')
    .meta({ description: `1 to ${MAX_COMMENT} characters, newlines preserved`, minLength: 1, maxLength: MAX_COMMENT, pattern: '\\S' }),
});
