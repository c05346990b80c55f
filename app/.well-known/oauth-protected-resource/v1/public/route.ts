import { boundedRoute } from '@/server/http/exchange';
import { handleOAuthMetadata } from '@/server/oauth/endpoints';

export const dynamic = 'force-dynamic';

const handle = boundedRoute((request) => handleOAuthMetadata(request));

export { handle as GET, handle as HEAD, handle as OPTIONS };
