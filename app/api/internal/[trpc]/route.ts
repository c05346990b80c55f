import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { settingsRouter } from '@/server/settings/router';
import { settingsError } from '@/server/settings/trpc';
import { SETTINGS_BODY_LIMIT, withBodyLimit } from '@/server/http/limited-body-route';
import { deliveringAfterResponse } from '@/server/http/deliver-after-response';

export const dynamic = 'force-dynamic';

function answer(req: Request) {
  return fetchRequestHandler({
    endpoint: '/api/internal',
    req,
    router: settingsRouter,
    createContext: () => ({ headers: req.headers }),
    // The status comes from the one error mapping, like the public API's.
    responseMeta: ({ errors }) => (errors[0] ? { status: settingsError(errors[0]).statusCode } : {}),
  });
}

const handle = withBodyLimit(SETTINGS_BODY_LIMIT, answer);
// Sending a delivery again queues it: attempted once the answer has gone where no worker runs.
const post = deliveringAfterResponse(handle);

export { handle as GET, post as POST };
