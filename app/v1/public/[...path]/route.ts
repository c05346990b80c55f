import { deliveringAfterResponse, writingLogAfterResponse } from '@/server/http/deliver-after-response';
import { handlePublicRequest } from '@/server/http/public-api';

export const dynamic = 'force-dynamic';

const read = writingLogAfterResponse(handlePublicRequest);
const write = deliveringAfterResponse(read);

export { read as GET, write as POST, write as PATCH, write as PUT, write as DELETE, read as HEAD, handlePublicRequest as OPTIONS };
