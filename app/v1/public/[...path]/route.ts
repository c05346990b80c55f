import { deliveringAfterResponse } from '@/server/http/deliver-after-response';
import { handlePublicRequest } from '@/server/http/public-api';

export const dynamic = 'force-dynamic';

const write = deliveringAfterResponse(handlePublicRequest);

export {
  handlePublicRequest as GET,
  write as POST,
  write as PATCH,
  write as PUT,
  write as DELETE,
  handlePublicRequest as HEAD,
  handlePublicRequest as OPTIONS,
};
