import { handlePublicRequest } from '@/server/http/public-api';

export const dynamic = 'force-dynamic';

export {
  handlePublicRequest as GET,
  handlePublicRequest as POST,
  handlePublicRequest as PATCH,
  handlePublicRequest as PUT,
  handlePublicRequest as DELETE,
  handlePublicRequest as HEAD,
  handlePublicRequest as OPTIONS,
};
