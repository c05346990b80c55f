import type { AuditContext } from '../audit/context';
import type { Db } from '../db/client';
import { badRequest } from '../errors';
import { isScope, type Scope } from '../keys/scopes';
import { createGrant, discardGrant } from './grants';
import { OAUTH_BASE_PATH } from './origin';
import { oauthServer, withApprovingGrant } from './provider';

/**
 * The authorization request the consent page shows, from the query the authorization
 * endpoint sent the browser there with (signed by the library; consent checks the
 * signature). Null when it names no registered app or a redirect URI the app did not
 * register: the page then says so and sends the browser nowhere.
 */
export async function pendingAuthorization(db: Db, query: URLSearchParams) {
  const clientId = query.get('client_id');
  const redirectUri = query.get('redirect_uri');
  const expires = Number(query.get('exp'));
  if (!clientId || !redirectUri || !query.get('sig')) return null;
  if (!Number.isFinite(expires) || expires * 1000 <= Date.now()) return null;
  const client = await db.oauthClient.findUnique({
    where: { clientId },
    select: { clientId: true, name: true, redirectUris: true, disabled: true },
  });
  if (!client || client.disabled || !client.redirectUris.includes(redirectUri)) return null;
  const asked = (query.get('scope') ?? '').split(' ');
  return {
    clientId: client.clientId,
    appName: client.name?.trim() || 'An unnamed app',
    redirectHost: new URL(redirectUri).host,
    scopes: asked.filter(isScope),
  };
}

export interface Approval {
  headers: Headers;
  /** The query of the consent page, exactly as the authorization endpoint signed it. */
  oauthQuery: string;
  userId: string;
  workspaceId: string;
  scopes: Scope[];
  projectId: string | null;
  /** The approving person and their request, for the audit log's `oauth_app.connected`. */
  audit: AuditContext;
}

/**
 * The person approved: a grant is made for the workspace, scopes and project they chose,
 * and the library issues the code under it (its id is the consent's referenceId).
 * Answers where to send the browser: the app's redirect URI with the code.
 */
export async function approve(db: Db, approval: Approval): Promise<string> {
  const query = new URLSearchParams(approval.oauthQuery);
  const pending = await pendingAuthorization(db, query);
  if (!pending) throw badRequest(AUTHORIZATION_INVALID);
  const refused = approval.scopes.find((scope) => !pending.scopes.includes(scope));
  if (refused) throw badRequest(`scopes: ${refused} was not asked for`);
  if (approval.scopes.length === 0) throw badRequest('scopes: choose at least one');
  const grantId = await createGrant(
    db,
    {
      workspaceId: approval.workspaceId,
      clientId: pending.clientId,
      appName: pending.appName,
      scopes: approval.scopes,
      projectId: approval.projectId,
      approvedById: approval.userId,
    },
    approval.audit,
  );
  const refresh = query.get('scope')?.split(' ').includes('offline_access') ? ['offline_access'] : [];
  try {
    return await withApprovingGrant(grantId, () => answerConsent(approval, true, [...approval.scopes, ...refresh]));
  } catch (error) {
    await discardGrant(db, grantId);
    throw error;
  }
}

/** The person denied: the app hears `access_denied` at its redirect URI. */
export async function deny(db: Db, headers: Headers, oauthQuery: string): Promise<string> {
  if (!(await pendingAuthorization(db, new URLSearchParams(oauthQuery)))) throw badRequest(AUTHORIZATION_INVALID);
  return answerConsent({ headers, oauthQuery }, false, []);
}

export const AUTHORIZATION_INVALID = 'This authorization request is not valid or has expired: start again from the app';

/**
 * The library's consent endpoint, called in-process: it needs a whole request (it runs
 * the authorization again), and it is not reachable over HTTP (endpoints.ts).
 */
async function answerConsent(approval: Pick<Approval, 'headers' | 'oauthQuery'>, accept: boolean, scopes: string[]): Promise<string> {
  const origin = approval.headers.get('origin') ?? '';
  const headers = new Headers({ accept: 'application/json', 'content-type': 'application/json', origin });
  const cookie = approval.headers.get('cookie');
  if (cookie) headers.set('cookie', cookie);
  const response = await oauthServer(`${origin}/`).handler(
    new Request(`${origin}${OAUTH_BASE_PATH}/oauth2/consent`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ accept, oauth_query: approval.oauthQuery, ...(accept && { scope: scopes.join(' ') }) }),
    }),
  );
  const answer = (await response.json().catch(() => null)) as { url?: unknown; redirect_uri?: unknown; error_description?: unknown } | null;
  const target = answer?.url ?? answer?.redirect_uri;
  if (!response.ok || typeof target !== 'string') {
    const description = answer?.error_description;
    throw badRequest(typeof description === 'string' ? `${AUTHORIZATION_INVALID} (${description})` : AUTHORIZATION_INVALID);
  }
  return target;
}
