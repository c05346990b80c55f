import { serveUpload } from '@/server/http/direct-upload';

export const dynamic = 'force-dynamic';

export { serveUpload as PUT, serveUpload as OPTIONS };
