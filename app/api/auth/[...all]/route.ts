import { handleAuthRequest } from '@/server/auth/session';
import { AUTH_BODY_LIMIT, withBodyLimit } from '@/server/http/limited-body-route';
import { handleOAuthEndpoint, isOAuthEndpoint } from '@/server/oauth/endpoints';

export const dynamic = 'force-dynamic';

const handle = withBodyLimit(AUTH_BODY_LIMIT, (request) =>
  isOAuthEndpoint(request) ? handleOAuthEndpoint(request) : handleAuthRequest(request),
);

export { handle as GET, handle as POST, handle as OPTIONS };
