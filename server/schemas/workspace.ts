import { z } from 'zod';
import { int32, MAX_NAME, nextCursor, uuid } from './common';

export const MAX_PROJECTS_PAGE = 100;
const LIMIT = `must be a whole number from 1 to ${MAX_PROJECTS_PAGE}`;
const CURSOR = 'must be a cursor from meta.nextCursor';
/** A project's slug, as the admin CLI and settings accept it: what a path's `{projectSlug}` can name. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG = 60;

/** A project as an answer names it. */
export const projectRefSchema = z.object({
  id: uuid(),
  slug: z.string().max(MAX_SLUG).meta({ example: 'web' }),
  name: z.string().max(MAX_NAME).meta({ example: 'Web' }),
});

export const projectsQuery = z.object({
  after: z
    .string()
    .max(100, CURSOR)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR)
    .transform((value, context) => {
      const slug = Buffer.from(value, 'base64url').toString('latin1');
      if (slug.length > MAX_SLUG || !SLUG_PATTERN.test(slug)) {
        context.addIssue({ code: 'custom', message: CURSOR });
        return z.NEVER;
      }
      return slug;
    })
    .meta({ description: 'The projects after this place, from an earlier `meta.nextCursor`', example: 'd2Vi' })
    .optional(),
  limit: z.number({ error: LIMIT }).int({ error: LIMIT }).min(1, LIMIT).max(MAX_PROJECTS_PAGE, LIMIT).meta({ format: 'int32' }).default(50),
});
export type ProjectsQuery = z.infer<typeof projectsQuery>;

export const encodeProjectCursor = (slug: string) => Buffer.from(slug, 'latin1').toString('base64url');

export const projectSummarySchema = projectRefSchema
  .extend({
    keyPrefix: z.string().max(10).meta({ description: "The prefix of its tasks' external IDs", example: 'WEB' }),
    taskCounts: z
      .object({
        total: int32(),
        todo: int32(),
        in_progress: int32(),
        done: int32(),
      })
      .meta({ description: 'Its top-level tasks, in all and by status category: the totals the task list answers' }),
  })
  .meta({ id: 'ProjectSummary' });

export const projectListSchema = z
  .object({
    projects: z.array(projectSummarySchema).max(MAX_PROJECTS_PAGE).meta({ description: 'By slug' }),
    meta: z.object({
      hasMore: z.boolean(),
      nextCursor: nextCursor().nullable().meta({ description: 'Pass it as `after` to read the next page; null when there is none' }),
    }),
  })
  .meta({ id: 'ProjectList' });
