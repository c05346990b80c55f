import { handleAuthRequest } from '@/server/auth/session';
import { AUTH_BODY_LIMIT, withBodyLimit } from '@/server/http/limited-body-route';

export const dynamic = 'force-dynamic';

const handle = withBodyLimit(AUTH_BODY_LIMIT, handleAuthRequest);

export { handle as GET, handle as POST };
