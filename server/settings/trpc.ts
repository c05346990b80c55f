import { initTRPC, type TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { z } from 'zod';
import { personContext, type RequestFacts } from '../audit/context';
import { isSameOrigin } from '../auth/origin';
import { sessionUser, type SignedInUser } from '../auth/session';
import { canManageKeys, workspaceAccess } from '../auth/workspace-access';
import { db } from '../db/client';
import { env } from '../env';
import { AppError, forbidden, notFound } from '../errors';
import { toPublicError, type PublicError } from '../api/errors';
import { logEvent } from '../log';
import { text } from '../schemas/common';

/**
 * The settings page's own tRPC instance, apart from the public API's: callers
 * are signed-in people with a session cookie, not API keys.
 */
export interface SettingsContext {
  headers: Headers;
  /** The session's person when the edge looked it up already (gate.ts): null for none. */
  user?: SignedInUser | null;
  /** Where the request came from and its id, as the route decided them; absent for a server component's own calls. */
  request?: RequestFacts;
}

const UNKNOWN_REQUEST: RequestFacts = { ip: null, userAgent: null, requestId: null };

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/**
 * What a failed call answers: the status from the one error mapping, and the tRPC
 * code that goes with it (tRPC would say INTERNAL_SERVER_ERROR for every AppError).
 * tRPC reports input it cannot parse (`?input=%7Bnot`, a body `{bad`) as BAD_REQUEST
 * around JSON.parse's SyntaxError, and other refusals of its own as BAD_REQUEST too.
 */
export function settingsError(error: TRPCError): PublicError & { code: TRPC_ERROR_CODE_KEY } {
  if (error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError) {
    return { statusCode: 400, message: 'Input is not valid JSON', code: 'PARSE_ERROR' };
  }
  if (error.code === 'BAD_REQUEST' && !error.cause) return { statusCode: 400, message: error.message, code: 'BAD_REQUEST' };
  const publicError = toPublicError(error);
  const code = error.code === 'PARSE_ERROR' ? error.code : (CODES[publicError.statusCode] ?? 'INTERNAL_SERVER_ERROR');
  return { ...publicError, code };
}

const t = initTRPC.context<SettingsContext>().create({
  errorFormatter({ error, path }) {
    const { code, statusCode, message } = settingsError(error);
    // A 5xx hides its cause from the client: the log gets it.
    if (statusCode >= 500) logEvent('error', 'settings.request_failed', { path, error: error.cause ?? error });
    return {
      code: TRPC_ERROR_CODES_BY_KEY[code],
      message,
      data: { code, httpStatus: statusCode, path, fieldErrors: fieldErrors(error.cause) },
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
export const sameOriginProcedure = t.procedure.use(({ type, ctx, next }) => {
  if (type === 'mutation' && !isSameOrigin(ctx.headers, env().appOrigins)) throw forbidden('Cross-site request refused');
  return next();
});

export const signedInProcedure = sameOriginProcedure.use(async ({ ctx, next }) => {
  const user = ctx.user !== undefined ? ctx.user : await sessionUser(ctx.headers);
  if (!user) throw new AppError('unauthorized', 'Sign in to continue');
  return next({ ctx: { ...ctx, user } });
});

/** A procedure on one workspace's settings of this kind: its owners and admins only. */
function managerProcedure(what: string) {
  return signedInProcedure.input(z.object({ workspace: text() })).use(async ({ ctx, input, next }) => {
    const access = await workspaceAccess(db(), ctx.user.id, input.workspace);
    if (!access) throw notFound('Workspace not found');
    if (!canManageKeys(access.role)) throw forbidden(`Only owners and admins of this workspace ${what}`);
    return next({ ctx: { ...ctx, workspace: access.workspace, audit: personContext(ctx.user, ctx.request ?? UNKNOWN_REQUEST) } });
  });
}

export const keyManagerProcedure = managerProcedure('manage its API keys');
export const webhookManagerProcedure = managerProcedure('manage its webhooks');
export const appManagerProcedure = managerProcedure('manage its connected apps');
export const auditReaderProcedure = managerProcedure('read its audit log');
export const requestLogProcedure = managerProcedure('read its request log');
export const usageManagerProcedure = managerProcedure('read its usage');
