import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../../server/db/generated/enums';
import type { Scope } from '../../server/keys/scopes';
import { requestFrom } from './loopback-client';
import { appOrigin, createPerson, settingsClient, signIn } from './settings';

/** A PKCE pair (RFC 7636), S256. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const REDIRECT_URI = 'http://127.0.0.1:43117/callback';
export const mcpResource = () => `${appOrigin()}/v1/mcp`;
export const restResource = () => `${appOrigin()}/v1/public`;

/** Dynamic client registration (RFC 7591) as an MCP client sends it: public, a loopback redirect. */
export async function registerClient(baseUrl: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/api/auth/oauth2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      client_name: 'Agent Desk',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...body,
    }),
  });
  return { status: response.status, body: (await response.json()) as { client_id: string; error?: string; error_description?: string } };
}

/** A signed-in person of the workspace with this role: their session cookie. */
export async function personSignedIn(baseUrl: string, workspaceId: string, role: Role) {
  const person = await createPerson(workspaceId, role);
  const { cookie } = await signIn(baseUrl, person.email, person.password);
  return { ...person, cookie };
}

export interface AuthorizeOptions {
  clientId: string;
  cookie: string;
  scope?: string;
  resource?: string | null;
  challenge?: string | null;
  method?: string;
  redirectUri?: string;
}

/** A browser's navigation (Node's fetch always says `sec-fetch-mode: cors`, which the library answers with JSON). */
const NAVIGATION = { accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

/** GET /oauth2/authorize as the person's browser sends it, not following the redirect. */
export async function authorize(baseUrl: string, options: AuthorizeOptions) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    scope: options.scope ?? 'task:read task:create task:update offline_access',
    state: 'st-1',
  });
  if (options.challenge !== null) {
    query.set('code_challenge', options.challenge ?? pkce().challenge);
    query.set('code_challenge_method', options.method ?? 'S256');
  }
  if (options.resource !== null) query.set('resource', options.resource ?? mcpResource());
  const response = await requestFrom('127.0.0.1', `${baseUrl}/api/auth/oauth2/authorize?${query}`, {
    headers: { ...NAVIGATION, cookie: options.cookie },
  });
  return { status: response.status, location: response.headers.location ?? null, body: response.body };
}

/** The consent page's Approve: the query it was opened with, the workspace, scopes and project chosen. */
export async function approve(
  baseUrl: string,
  cookie: string,
  consentUrl: string,
  choice: { workspace: string; scopes: Scope[]; projectId?: string | null },
) {
  const oauthQuery = new URL(consentUrl, baseUrl).search.slice(1);
  return settingsClient(baseUrl, { cookie }).mutate('apps.approve', { oauthQuery, projectId: null, ...choice });
}

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope: string;
  token_type: string;
  error?: string;
  error_description?: string;
}

export async function token(baseUrl: string, form: Record<string, string>) {
  const response = await fetch(`${baseUrl}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as TokenAnswer };
}

/** The whole flow for a signed-in admin: registration, authorization, consent, code for tokens. */
export async function connectApp(
  baseUrl: string,
  cookie: string,
  choice: { workspace: string; scopes: Scope[]; projectId?: string | null },
  options: { resource?: string; scope?: string } = {},
) {
  // Apps register from addresses of their own: registrations are limited per address.
  const client = await registerClient(
    baseUrl,
    {},
    { 'x-forwarded-for': `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1` },
  );
  const { verifier, challenge } = pkce();
  const asked = await authorize(baseUrl, { clientId: client.body.client_id, cookie, challenge, ...options });
  const approved = await approve(baseUrl, cookie, asked.location!, choice);
  if (!approved.data) throw new Error(`consent refused: ${JSON.stringify(approved.error)}`);
  const code = new URL(approved.data.redirectTo).searchParams.get('code')!;
  const tokens = await token(baseUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: client.body.client_id,
    code_verifier: verifier,
    resource: options.resource ?? mcpResource(),
  });
  return { clientId: client.body.client_id, code, verifier, tokens: tokens.body };
}
