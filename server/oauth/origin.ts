import { env } from '../env';

/** Where the authorization server's endpoints are; its issuer is the origin followed by this. */
export const OAUTH_BASE_PATH = '/api/auth';
/** Where a protected resource's metadata is (RFC 9728), followed by the resource's path. */
export const PROTECTED_RESOURCE_METADATA = '/.well-known/oauth-protected-resource';

/**
 * The app's own origin a request came to: one of APP_URL's origins (a Vercel preview's
 * among them), or APP_URL's when the Host named none, so a forged header names nothing.
 */
export function appOriginOf(requestUrl: string): string {
  const { appUrl, appOrigins } = env();
  const origin = new URL(requestUrl).origin;
  return appOrigins.includes(origin) ? origin : new URL(appUrl).origin;
}
