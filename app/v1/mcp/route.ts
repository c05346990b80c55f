import { deliveringAfterResponse, writingLogAfterResponse } from '@/server/http/deliver-after-response';
import { handleMcpRequest } from '@/server/http/mcp';

export const dynamic = 'force-dynamic';

// MCP's tool calls, writes among them, arrive as POSTs.
const post = deliveringAfterResponse(writingLogAfterResponse(handleMcpRequest));

export {
  handleMcpRequest as GET,
  post as POST,
  handleMcpRequest as DELETE,
  handleMcpRequest as PUT,
  handleMcpRequest as PATCH,
  handleMcpRequest as OPTIONS,
};
