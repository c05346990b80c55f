import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { settingsRouter } from '@/server/api/routers/settings/router';
import { settingsError } from '@/server/api/routers/settings/trpc';

export const dynamic = 'force-dynamic';

function handle(req: Request) {
  return fetchRequestHandler({
    endpoint: '/api/internal',
    req,
    router: settingsRouter,
    createContext: () => ({ headers: req.headers }),
    // The status comes from the one error mapping, like the public API's.
    responseMeta: ({ errors }) => (errors[0] ? { status: settingsError(errors[0]).statusCode } : {}),
  });
}

export { handle as GET, handle as POST };
