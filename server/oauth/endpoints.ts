import { RESOURCE_PATHS } from './access-token';
import { MCP_SCOPES, SCOPES } from '../keys/scopes';
import { appOriginOf, OAUTH_BASE_PATH, PROTECTED_RESOURCE_METADATA } from './origin';
import { oauthServer, type OAuthServer } from './provider';

/**
 * The authorization server's endpoints reachable over HTTP, under /api/auth. The
 * library's others (client and consent management, userinfo, its consent endpoint)
 * answer 404: the consent page approves through server code (consent.ts), behind
 * the settings API's session and same-origin checks.
 */
const ENDPOINTS = new Map([
  ['/oauth2/authorize', 'GET'],
  ['/oauth2/token', 'POST'],
  ['/oauth2/register', 'POST'],
  ['/oauth2/revoke', 'POST'],
]);

// Clients in a browser (MCP Inspector, web apps) call these across origins, with no cookie.
const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Authorization, Content-Type, Mcp-Protocol-Version' };

/** An endpoint's path under the issuer, as ENDPOINTS names it. */
const endpointPath = (url: string) => new URL(url).pathname.slice(OAUTH_BASE_PATH.length).replace(/\/+$/, '');

export function isOAuthEndpoint(request: Request): boolean {
  return ENDPOINTS.has(endpointPath(request.url));
}

export async function handleOAuthEndpoint(request: Request): Promise<Response> {
  const path = endpointPath(request.url);
  const method = ENDPOINTS.get(path)!;
  const crossOrigin = method === 'POST';
  if (request.method === 'OPTIONS' && crossOrigin) {
    return new Response(null, { status: 204, headers: { ...CORS, 'Access-Control-Allow-Methods': 'POST', Allow: 'POST, OPTIONS' } });
  }
  if (request.method !== method) {
    return Response.json({ error: 'invalid_request', error_description: `use ${method}` }, { status: 405, headers: { Allow: method } });
  }
  const asked =
    path === '/oauth2/register' ? await asNativeWhenLoopback(request) : path === '/oauth2/authorize' ? withRefreshToken(request) : request;
  const response = await oauthServer(request.url).handler(asked);
  return crossOrigin ? withHeaders(response, CORS) : response;
}

/**
 * MCP clients ask for the scopes the protected resource lists, never `offline_access`
 * (the SDK's `auth()` among them), and the library issues a refresh token only for it.
 * An agent that must send the person back to the consent page every hour is no use, so
 * every authorization asks for it: apps get a refresh token, as from the remote MCP
 * servers of Linear or GitHub. The consent page does not list it: it adds no access.
 */
function withRefreshToken(request: Request): Request {
  const url = new URL(request.url);
  const scopes = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.includes('offline_access')) return request;
  url.searchParams.set('scope', [...scopes, 'offline_access'].join(' '));
  return new Request(url, { method: request.method, headers: request.headers });
}

const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//;

/**
 * A registration that names no `application_type` is a web client to the library
 * (OpenID's default), and web clients may not redirect to a loopback address. MCP
 * clients (the SDK, Claude Code, Cursor, VS Code) register without one and redirect to
 * `http://127.0.0.1:PORT/…` or `http://localhost:PORT/…`: RFC 8252's native apps, so
 * they are registered as native, which allows those on any port.
 */
async function asNativeWhenLoopback(request: Request): Promise<Request> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const metadata = body as { application_type?: unknown; redirect_uris?: unknown } | null;
  const loopback =
    metadata !== null &&
    typeof metadata === 'object' &&
    metadata.application_type === undefined &&
    Array.isArray(metadata.redirect_uris) &&
    metadata.redirect_uris.some((uri) => typeof uri === 'string' && LOOPBACK.test(uri));
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: loopback ? JSON.stringify({ ...metadata, application_type: 'native' }) : text,
  });
}

/**
 * RFC 8414 and RFC 9728 documents of the origin asked: the authorization server's at
 * `/.well-known/oauth-authorization-server` (and at the issuer's path-inserted form
 * `/.well-known/oauth-authorization-server/api/auth`), the MCP server's at
 * `/.well-known/oauth-protected-resource` and `/.well-known/oauth-protected-resource/v1/mcp`.
 */
export async function handleOAuthMetadata(request: Request): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...CORS, Allow: 'GET, HEAD, OPTIONS' } });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Response.json({ error: 'invalid_request' }, { status: 405, headers: { Allow: 'GET, HEAD, OPTIONS' } });
  }
  const url = new URL(request.url);
  const server = oauthServer(request.url);
  // The library serves these under the origin it was built for, whatever Host the request named.
  const origin = appOriginOf(request.url);
  const asked = new Request(origin + url.pathname, { method: request.method, headers: request.headers });
  const response = url.pathname.startsWith('/.well-known/oauth-authorization-server')
    ? Response.json(servedEndpointsOnly(await server.api.getOAuthServerConfig({ request: asked, asResponse: false })))
    : url.pathname === `${PROTECTED_RESOURCE_METADATA}${RESOURCE_PATHS.rest}`
      ? await withScopes(await restResourceMetadata(server, origin, asked), SCOPES)
      : await withScopes(await server.handler(asked), MCP_SCOPES);
  return withHeaders(response, { ...CORS, 'Cache-Control': 'public, max-age=300' });
}

/**
 * The scopes a resource's metadata lists, which MCP clients ask for as they are: the MCP
 * server's tools need the task scopes only, the REST API also serves the audit log.
 */
async function withScopes(response: Response, scopes: readonly string[]): Promise<Response> {
  if (!response.ok) return response;
  const metadata = (await response.json()) as Record<string, unknown>;
  return Response.json({ ...metadata, scopes_supported: [...scopes] }, { status: response.status });
}

/**
 * The REST API's metadata (RFC 9728): the library serves the MCP server's only, and
 * the REST API is protected by the same authorization server with the same scopes.
 */
async function restResourceMetadata(server: OAuthServer, origin: string, asked: Request): Promise<Response> {
  const mcp = await server.handler(new Request(`${origin}${PROTECTED_RESOURCE_METADATA}${RESOURCE_PATHS.mcp}`, asked));
  const metadata = (await mcp.json()) as Record<string, unknown>;
  return Response.json({ ...metadata, resource: `${origin}${RESOURCE_PATHS.rest}` }, { status: mcp.status });
}

/**
 * The library's metadata also names endpoints this server does not serve over HTTP
 * (introspection: the resource servers are this app, which reads its tokens itself).
 * A client must not be sent to an address that answers 404: they are left out, with
 * the fields that describe them (`introspection_endpoint_auth_methods_supported`).
 */
function servedEndpointsOnly(metadata: object): Record<string, unknown> {
  const unserved = Object.entries(metadata)
    .filter(([name, value]) => name.endsWith('_endpoint') && !(typeof value === 'string' && ENDPOINTS.has(endpointPath(value))))
    .map(([name]) => name);
  return Object.fromEntries(
    Object.entries(metadata).filter(([name]) => !unserved.some((endpoint) => name === endpoint || name.startsWith(`${endpoint}_`))),
  );
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
