import { openApiDocument } from '@/server/api/openapi';
import { boundedRoute } from '@/server/http/exchange';

export const dynamic = 'force-dynamic';

// Clients generated in a browser, and reference pages on other origins, read it too.
export const GET = boundedRoute(async () => Response.json(openApiDocument(), { headers: { 'Access-Control-Allow-Origin': '*' } }));
