import { handleMcpRequest } from '@/server/http/mcp';

export const dynamic = 'force-dynamic';

export {
  handleMcpRequest as GET,
  handleMcpRequest as POST,
  handleMcpRequest as DELETE,
  handleMcpRequest as PUT,
  handleMcpRequest as PATCH,
  handleMcpRequest as OPTIONS,
};
