import { handleAuthRequest } from '@/server/auth/session';
import { AUTH_BODY_LIMIT, withBodyLimit } from '@/server/http/limited-body-route';
import { requestFacts, withRequestId } from '@/server/http/request-facts';
import { handleOAuthEndpoint, isOAuthEndpoint } from '@/server/oauth/endpoints';

export const dynamic = 'force-dynamic';

const handle = withBodyLimit(
  AUTH_BODY_LIMIT,
  withRequestId((request, requestId) =>
    isOAuthEndpoint(request) ? handleOAuthEndpoint(request) : handleAuthRequest(request, requestFacts(request.headers, requestId)),
  ),
);

export { handle as GET, handle as POST, handle as OPTIONS };
