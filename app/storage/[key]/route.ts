import { serveDownload } from '@/server/storage/download';

export const dynamic = 'force-dynamic';

export { serveDownload as GET };
