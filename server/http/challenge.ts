import type { RequestState } from '../api/access';
import { missingScope } from '../api/messages';
import type { Scope } from '../keys/scopes';
import { RESOURCE_PATHS, type ApiResource } from '../oauth/access-token';
import { appOriginOf, PROTECTED_RESOURCE_METADATA } from '../oauth/origin';

/** Where a resource's metadata (RFC 9728) is: the path-suffixed form of the well-known URI. */
export function resourceMetadataUrl(requestUrl: string, resource: ApiResource): string {
  return `${appOriginOf(requestUrl)}${PROTECTED_RESOURCE_METADATA}${RESOURCE_PATHS[resource]}`;
}

/**
 * The `WWW-Authenticate` of an error answer on the MCP server or the REST API (RFC 6750,
 * RFC 9728): a 401 names the resource's metadata, where a client without credentials
 * learns which authorization server to ask; a 403 for a scope an app's grant lacks is
 * `insufficient_scope` naming it, so the client can ask the person for more (MCP's
 * step-up). A key cannot be widened that way: its 403 carries no challenge.
 */
export function challengeHeaders(requestUrl: string, state: RequestState, status: number): Record<string, string> {
  const resource = state.resource ?? 'rest';
  const metadata = resourceMetadataUrl(requestUrl, resource);
  if (status === 401) return { 'WWW-Authenticate': `Bearer resource_metadata="${metadata}"` };
  const scope = state.lackingScope;
  if (status === 403 && scope && state.authenticated?.principal.kind === 'grant') return insufficientScope(metadata, scope);
  return {};
}

export function insufficientScope(metadataUrl: string, scope: Scope): Record<string, string> {
  return {
    'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadataUrl}", error_description="${missingScope(scope)}"`,
  };
}
