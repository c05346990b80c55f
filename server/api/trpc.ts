import { initTRPC } from '@trpc/server';
import type { Scope } from '../keys/scopes';
import { answerError } from './errors';
import { db } from '../db/client';
import { admit, admitToWorkspace, type RequestState } from './access';
import { reading, wrote } from './reads';
import type { PublicMeta } from './operation';

export interface Context {
  state: RequestState;
  /**
   * A file sent as data with the call rather than as a multipart body (the MCP
   * tool upload_attachment), read by the upload procedure once the gate has passed.
   */
  inlineFile?: unknown;
}

const t = initTRPC
  .context<Context>()
  .meta<PublicMeta>()
  .create({
    // The public shape rides along in the error body; the route handler sends only it.
    errorFormatter({ shape, error, ctx }) {
      return { ...shape, publicError: answerError(error, 'request.failed', { requestId: ctx?.state.requestId }) };
    },
  });

export const router = t.router;

/**
 * The only way to build a public procedure: the request is admitted (key, rate
 * limit, scope, project, project scope) before its input is even parsed, so no
 * handler can skip a check and the checks answer in the contract's order. The
 * scope is also written into the procedure's metadata, where the REST edge reads
 * it to run the same gate before it reads a request's body (server/api/routes.ts).
 */
export function projectProcedure(scope: Scope) {
  return t.procedure.meta({ scope }).use(async ({ ctx, getRawInput, next, type }) => {
    const raw = (await getRawInput()) as { projectSlug?: unknown } | undefined;
    const access = await admit(ctx.state, scope, raw?.projectSlug);
    const { keyId } = access.principal;
    // Reads may go to a replica (server/api/reads.ts); a write marks its principal,
    // whatever its outcome, before the answer leaves.
    if (type === 'query') return reading(keyId, (from) => next({ ctx: { ...ctx, ...access, db: from } }));
    try {
      return await next({ ctx: { ...ctx, ...access, db: db() } });
    } finally {
      await wrote(keyId);
    }
  });
}

/**
 * A public procedure on the workspace rather than one of its projects: its path
 * names no project, and its gate (key, rate limit, scope) is admitToWorkspace's.
 * A scope of null lets every key and app ask, each for what is its own; with
 * `projectKeys`, a key limited to one project may ask too, for what its project
 * holds. A query reads where project reads do (server/api/reads.ts); a mutation
 * writes on the primary and marks its principal, as a project's writes do.
 */
export function workspaceProcedure(scope: Scope | null, options: { projectKeys?: true } = {}) {
  return t.procedure.meta({ scope, workspace: true, ...options }).use(async ({ ctx, next, type }) => {
    const principal = await admitToWorkspace(ctx.state, scope, options);
    if (type === 'query') return reading(principal.keyId, (from) => next({ ctx: { ...ctx, principal, db: from } }));
    try {
      return await next({ ctx: { ...ctx, principal, db: db() } });
    } finally {
      await wrote(principal.keyId);
    }
  });
}
