import { initTRPC } from '@trpc/server';
import { z } from 'zod';
import { isSameOrigin } from '../../../auth/origin';
import { sessionUser } from '../../../auth/session';
import { canManageKeys, workspaceAccess } from '../../../auth/workspace-access';
import { db } from '../../../db/client';
import { env } from '../../../env';
import { AppError, forbidden, notFound } from '../../../errors';
import { answerError } from '../../../http/errors';
import { text } from '../../schemas/common';

/**
 * The settings page's own tRPC instance, apart from the public API's: callers
 * are signed-in people with a session cookie, not API keys.
 */
export interface SettingsContext {
  headers: Headers;
}

const t = initTRPC.context<SettingsContext>().create({
  errorFormatter({ shape, error, path }) {
    const publicError = answerError(error, 'settings.request_failed', { path });
    return {
      code: shape.code,
      message: publicError.message,
      data: { code: shape.data.code, httpStatus: publicError.statusCode, path, fieldErrors: fieldErrors(error.cause) },
    };
  },
});

/** The first problem of each top-level input field, for the form to show beside that field. */
function fieldErrors(cause: unknown): Record<string, string> {
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return {};
  const errors: Record<string, string> = {};
  for (const issue of issues as z.core.$ZodIssue[]) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Every procedure: mutations only from the app's own origin, whatever the cookies say. */
export const publicProcedure = t.procedure.use(({ type, ctx, next }) => {
  if (type === 'mutation' && !isSameOrigin(ctx.headers, env().appOrigins)) throw forbidden('Cross-site request refused');
  return next();
});

export const signedInProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await sessionUser(ctx.headers);
  if (!user) throw new AppError('unauthorized', 'Sign in to continue');
  return next({ ctx: { ...ctx, user } });
});

/** A procedure on one workspace's keys: its owners and admins only. */
export const keyManagerProcedure = signedInProcedure
  .input(z.object({ workspace: text() }))
  .use(async ({ ctx, input, next }) => {
    const access = await workspaceAccess(db(), ctx.user.id, input.workspace);
    if (!access) throw notFound('Workspace not found');
    if (!canManageKeys(access.role)) throw forbidden('Only owners and admins of this workspace manage its API keys');
    return next({ ctx: { ...ctx, workspace: access.workspace } });
  });
