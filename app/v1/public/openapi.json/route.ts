import { openApiDocument } from '@/server/api/openapi';

export const dynamic = 'force-dynamic';

export function GET() {
  // Clients generated in a browser, and reference pages on other origins, read it too.
  return Response.json(openApiDocument(), { headers: { 'Access-Control-Allow-Origin': '*' } });
}
