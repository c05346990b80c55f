import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mcp } from '@better-auth/mcp';
import { betterAuth } from 'better-auth';
import { authOptions } from '../auth/session';
import { SCOPES } from '../keys/scopes';
import { appOriginOf, OAUTH_BASE_PATH } from './origin';
import { ACCESS_TOKEN_PREFIX, hashToken, REFRESH_TOKEN_PREFIX } from './tokens';

export const CONSENT_PAGE = '/oauth/consent';
export const SIGN_IN_PAGE = '/sign-in';
export const ERROR_PAGE = '/oauth/error';
/** The scopes an app may ask for: the API's, and offline_access for a refresh token. */
export const OAUTH_SCOPES = [...SCOPES, 'offline_access'] as const;
export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
/** Registrations per client address and minute; MCP clients register once per server they add. */
export const REGISTRATIONS_PER_MINUTE = 10;

/** The protected resources of one origin (RFC 8707 / RFC 9728 identifiers). */
export function resourcesOf(origin: string) {
  return { mcp: `${origin}/v1/mcp`, rest: `${origin}/v1/public` };
}

// The grant the consent being approved creates (server/oauth/consent.ts): its id becomes the
// referenceId of the code and of every token issued under it.
const approvingGrant = new AsyncLocalStorage<string>();

export function withApprovingGrant<T>(grantId: string, approve: () => Promise<T>): Promise<T> {
  return approvingGrant.run(grantId, approve);
}

function createOAuthServer(origin: string) {
  const resources = resourcesOf(origin);
  return betterAuth({
    ...authOptions(origin),
    // Where an authorization that cannot go back to the app (an unknown client, a redirect
    // URI it did not register) is explained; never the redirect URI asked for.
    onAPIError: { errorURL: `${origin}${ERROR_PAGE}` },
    plugins: [
      mcp({
        resource: resources.mcp,
        resources: [resources.rest],
        clientRegistrationDefaultResources: [resources.rest],
        scopes: [...OAUTH_SCOPES],
        loginPage: SIGN_IN_PAGE,
        consentPage: CONSENT_PAGE,
        // Open registration, as MCP clients (Claude, ChatGPT, Cursor, VS Code) expect.
        allowDynamicClientRegistration: true,
        allowUnauthenticatedClientRegistration: true,
        grantTypes: ['authorization_code', 'refresh_token'],
        // Opaque tokens looked up in the database on every request, so a revoked grant
        // stops at once on every instance; no JWT plugin, no signing keys to keep.
        disableJwtPlugin: true,
        accessTokenExpiresIn: ACCESS_TOKEN_SECONDS,
        refreshTokenExpiresIn: REFRESH_TOKEN_SECONDS,
        prefix: { opaqueAccessToken: ACCESS_TOKEN_PREFIX, refreshToken: REFRESH_TOKEN_PREFIX },
        storeTokens: { hash: (token) => hashToken(token) },
        rateLimit: { register: { window: 60, max: REGISTRATIONS_PER_MINUTE } },
        postLogin: {
          page: CONSENT_PAGE,
          shouldRedirect: () => false,
          // Outside an approval no earlier consent matches, so every authorization asks
          // the person (and makes a grant of its own) rather than reusing an old one.
          consentReferenceId: () => approvingGrant.getStore() ?? randomUUID(),
        },
      }),
    ],
  });
}

export type OAuthServer = ReturnType<typeof createOAuthServer>;

const servers = new Map<string, OAuthServer>();

/**
 * The authorization server of the origin a request came to. Issuer and endpoints are
 * the origin's own (better-auth pins them to baseURL), so a preview deployment at its
 * branch alias serves its own metadata. Only the app's own origins get one; any
 * other Host is served as APP_URL, so a forged header cannot grow this cache.
 */
export function oauthServer(requestUrl: string): OAuthServer {
  const origin = appOriginOf(requestUrl);
  let server = servers.get(origin);
  if (!server) {
    server = createOAuthServer(origin);
    servers.set(origin, server);
  }
  return server;
}

export function issuerOf(origin: string): string {
  return origin + OAUTH_BASE_PATH;
}
