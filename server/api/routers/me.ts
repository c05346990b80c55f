import { z } from 'zod';
import { describePrincipal, meSchema } from '../../auth/whoami';
import { operation } from '../operation';
import { router, workspaceProcedure } from '../trpc';

export const meRouter = router({
  get: workspaceProcedure(null)
    .meta(
      operation('GET', '/me', {
        summary: 'Who am I',
        tag: 'Workspace',
        description:
          'The key or app this request is made with: its workspace, scopes, the project it is limited to (if any), when it ' +
          'expires, and its rate limit with what is left of it after this request. Every key and app may ask, no scope ' +
          'needed: the first call of an integration that holds only a credential. Never a secret, a hash or a token.',
      }),
    )
    .input(z.object({}))
    .output(meSchema)
    .query(({ ctx }) => describePrincipal(ctx.db, ctx.principal, ctx.state.rateLimit)),
});
