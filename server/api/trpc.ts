import { initTRPC } from '@trpc/server';
import type { Scope } from '../keys/scopes';
import { answerError } from '../http/errors';
import { admit, type RequestState } from './access';
import type { PublicMeta } from './operation';

export interface Context {
  state: RequestState;
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
 * handler can skip a check and the checks answer in the contract's order.
 */
export function projectProcedure(scope: Scope) {
  return t.procedure.use(async ({ ctx, getRawInput, next }) => {
    const raw = (await getRawInput()) as { projectSlug?: unknown } | undefined;
    const access = await admit(ctx.state, scope, raw?.projectSlug);
    if (ctx.state.bodyProblem) throw ctx.state.bodyProblem;
    return next({ ctx: { ...ctx, ...access } });
  });
}
