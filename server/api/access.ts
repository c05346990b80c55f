import { authenticateKey, readPresentedKey, type ApiPrincipal, type KeyProject } from '../auth/api-key';
import { markKeyUsed } from '../auth/last-used';
import { userAgentOf, type AuditContext, type RequestFacts } from '../audit/context';
import { auditRejectedKey } from '../audit/rejected-key';
import type { AnswerMemory } from './answer-memory';
import { authenticateAccessToken, isAccessToken, type ApiResource } from '../oauth/access-token';
import { db } from '../db/client';
import { AppError, forbidden, notFound } from '../errors';
import type { Scope } from '../keys/scopes';
import type { ProjectRef } from '../projects/types';
import { logEvent } from '../log';
import type { MeteredDecision, RateLimitDecision } from '../ratelimit/limiter';
import type { RequestClaim } from './idempotency';
import { limits } from '../ratelimit/limits';
import { INVALID_KEY, missingScope, outsideProjectScope, PROJECT_NOT_FOUND, TOO_MANY_REQUESTS, WORKSPACE_KEY_NEEDED } from './messages';

/** What one public API request carries through its checks; read back to set response headers. */
export interface RequestState {
  requestId: string;
  clientAddress: string;
  headers: Headers;
  rateLimit?: RateLimitDecision;
  /** The name of the limit `rateLimit` was decided by, for the RateLimit-Policy and RateLimit fields. */
  rateLimitPolicy?: 'per-key' | 'per-address';
  /** The key's principal and the project its path names, once the key has been checked and counted. */
  authenticated?: Authenticated;
  /** The entity tag of the task the answer carries (server/tasks/etag.ts), sent as ETag. */
  etag?: string;
  /** The scope the principal was refused for lacking, which an app's grant may ask the person for. */
  lackingScope?: Scope;
  /** The resource the request is for, which an OAuth access token must have been issued for; REST when unset. */
  resource?: ApiResource;
  /** Where a large answer reserves room for its text until it has been written out. */
  answerMemory: AnswerMemory;
  /**
   * The rate limit's decision on the request that carries this one, counted already:
   * an MCP message's first tool call is counted as its POST was.
   */
  counted?: RateLimitDecision;
  /** The Idempotency-Key this request claimed, whose answer its write records (server/api/idempotency.ts). */
  idempotency?: RequestClaim;
  /** The key or app the request was made with, once found: the request log records its request, even refused. */
  principal?: ApiPrincipal;
  /** The answer is the one stored for its Idempotency-Key, sent again. */
  replayed?: boolean;
  /** The message of the error answer, for the request log. */
  errorMessage?: string;
}

export interface Access {
  principal: ApiPrincipal;
  project: ProjectRef;
}

interface Authenticated {
  principal: ApiPrincipal;
  project: KeyProject | null;
}

// Addresses over the bad-key limit, answered without asking the limiter's store
// until their window ends; swept past this size, so many addresses cannot grow it for ever.
const blockedAddresses = new Map<string, MeteredDecision>();
const BLOCKED_SWEEP_SIZE = 10_000;

/**
 * Every public request passes here, JSON or multipart, in the contract's order:
 * key (401), rate limit (429), scope (403), project (404), project scope (403).
 * The REST edge calls it before it reads the body and the procedure again before
 * its input is parsed: the key is looked up and counted once per request, the
 * rest is checked each time.
 */
export async function admit(state: RequestState, scope: Scope, projectSlug: unknown): Promise<Access> {
  state.authenticated ??= await authenticate(state, typeof projectSlug === 'string' ? projectSlug : '');
  const { principal, project } = state.authenticated;

  if (!principal.scopes.includes(scope)) {
    state.lackingScope = scope;
    throw forbidden(missingScope(scope));
  }

  if (!project) throw notFound(PROJECT_NOT_FOUND);
  if (principal.projectId !== null && principal.projectId !== project.id) {
    throw forbidden(outsideProjectScope(project.slug));
  }
  return { principal, project };
}

/**
 * The gate of an operation on the workspace rather than on one of its projects
 * (its audit log, request log, usage and webhooks), in the same order: key (401), rate limit
 * (429), scope (403). A scope of null: every key and app may ask, for what is its own.
 * What the workspace as a whole holds is refused to a key limited to one project, unless
 * the operation answers such a key with what its project holds (`projectKeys`).
 */
export async function admitToWorkspace(
  state: RequestState,
  scope: Scope | null,
  options: { projectKeys?: boolean } = {},
): Promise<ApiPrincipal> {
  state.authenticated ??= await authenticate(state, '');
  const { principal } = state.authenticated;
  if (scope === null) return principal;
  if (!principal.scopes.includes(scope)) {
    state.lackingScope = scope;
    throw forbidden(missingScope(scope));
  }
  if (principal.projectId !== null && !options.projectKeys) throw forbidden(WORKSPACE_KEY_NEEDED);
  return principal;
}

/**
 * The key's principal, counted against its own limit. A key that works is never
 * refused for what other requests from its address did: the per-address limit
 * only turns a bad key's 401 into a 429, so one broken script behind a NAT locks
 * out nobody else. (Keys carry a checksum, so most bad ones never reach the database.)
 */
async function authenticate(state: RequestState, projectSlug: string): Promise<Authenticated> {
  const found = await findKey(state, projectSlug);
  state.principal = found.principal;
  await count(state, found.principal);
  return found;
}

/**
 * The key's principal, counted against its limit, for a request that names no
 * project: an MCP message, whose tool calls are then each admitted on their own.
 * Bad keys are refused and counted per address exactly as in `admit`.
 */
export async function identify(state: RequestState): Promise<ApiPrincipal> {
  const { principal } = await findKey(state, '');
  state.principal = principal;
  await count(state, principal);
  return principal;
}

async function count(state: RequestState, principal: ApiPrincipal): Promise<void> {
  state.rateLimit = state.counted ?? (await limits().perKey.limit(principal.keyId));
  state.rateLimitPolicy = 'per-key';
  if (!state.rateLimit.success) throw new AppError('too_many_requests', TOO_MANY_REQUESTS);
  markKeyUsed(db(), principal.keyId, (error) => logEvent('error', 'api_key.mark_used_failed', { error }));
}

async function findKey(state: RequestState, projectSlug: string): Promise<Authenticated> {
  const presented = readPresentedKey(state.headers);
  const found = !presented
    ? null
    : isAccessToken(presented)
      ? await authenticateAccessToken(db(), presented, state.resource ?? 'rest', projectSlug)
      : await authenticateKey(db(), presented, projectSlug, (keyId) =>
          auditRejectedKey(db(), keyId, requestFactsOf(state), logRejectionFailure),
        );
  return found ?? refuseBadKey(state);
}

const logRejectionFailure = (error: unknown) => logEvent('error', 'audit.rejected_key_failed', { error });

/** What the audit log keeps of a public request: the address the edge resolved, the user agent, its id. */
export function requestFactsOf(state: RequestState): RequestFacts {
  return { ip: state.clientAddress, userAgent: userAgentOf(state.headers), requestId: state.requestId };
}

/** Who the audit log says made a change through the API: the key, or the app, and the request's facts. */
export function auditContextOf(state: RequestState, principal: ApiPrincipal): AuditContext {
  return {
    actor: { type: principal.kind === 'key' ? 'api_key' : 'oauth_app', id: principal.keyId, name: principal.keyName },
    ...requestFactsOf(state),
  };
}

async function refuseBadKey(state: RequestState): Promise<never> {
  const block = blockedAddresses.get(state.clientAddress);
  let decision: RateLimitDecision;
  if (block && block.reset > Date.now()) {
    decision = block;
  } else {
    blockedAddresses.delete(state.clientAddress);
    decision = await limits().badKeyPerAddress.limit(state.clientAddress);
    if (!decision.success) remember(state.clientAddress, decision);
  }
  // The 401 says how many more bad keys its address may send, as the 429 after them says how long to wait.
  state.rateLimit = decision;
  state.rateLimitPolicy = 'per-address';
  throw decision.success ? new AppError('unauthorized', INVALID_KEY) : new AppError('too_many_requests', TOO_MANY_REQUESTS);
}

function remember(address: string, decision: MeteredDecision): void {
  if (blockedAddresses.size >= BLOCKED_SWEEP_SIZE) {
    const now = Date.now();
    for (const [blocked, { reset }] of blockedAddresses) if (reset <= now) blockedAddresses.delete(blocked);
  }
  blockedAddresses.set(address, decision);
}
