import { serveDownload } from '@/server/http/download';

export const dynamic = 'force-dynamic';

export { serveDownload as GET };
