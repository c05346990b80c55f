import { ROUTE_TEMPLATES } from '../api/routes';
import { API_TOOLS } from '../mcp/tools';
import { RESOURCE_PATHS } from '../oauth/access-token';

/**
 * Every route a record can name, as the Requests page's route filter offers them: the
 * public API's templates, the MCP endpoint and each tool call. Taken from the route table
 * and the tools rather than from the log, so the choice costs no statement and a route
 * with no request yet can still be picked.
 */
export const REQUEST_ROUTES: readonly string[] = [
  ...ROUTE_TEMPLATES.map((template) => `${RESOURCE_PATHS.rest}${template}`),
  RESOURCE_PATHS.mcp,
  ...API_TOOLS.map((entry) => `tools/call ${entry.tool.name}`).sort(),
];
