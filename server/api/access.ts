import { authenticateKey, readPresentedKey, type ApiPrincipal, type KeyProject } from '../auth/api-key';
import { markKeyUsed } from '../auth/last-used';
import { db } from '../db/client';
import { AppError, forbidden, notFound } from '../errors';
import type { Scope } from '../keys/scopes';
import { logEvent } from '../log';
import type { RateLimitDecision } from '../ratelimit/limiter';
import { limits } from '../ratelimit/limits';

/** What one public API request carries through its checks; read back to set response headers. */
export interface RequestState {
  requestId: string;
  clientAddress: string;
  headers: Headers;
  rateLimit?: RateLimitDecision;
  /** A body that can never be valid input, found before parsing; reported after the checks. */
  bodyProblem?: AppError;
  /** Gives back the answer memory a large page reserved (server/http/answer-memory.ts). */
  releaseMemory?: () => void;
}

export interface ProjectRef {
  id: string;
  slug: string;
  keyPrefix: string;
}

export interface Access {
  principal: ApiPrincipal;
  project: ProjectRef;
}

const INVALID_KEY = 'Invalid API key';
const blockedAddresses = new Map<string, RateLimitDecision>();

/**
 * Every public request passes here, JSON or multipart, in the contract's order:
 * key (401), rate limit (429), scope (403), project (404), project scope (403).
 */
export async function admit(state: RequestState, scope: Scope, projectSlug: unknown): Promise<Access> {
  const slug = typeof projectSlug === 'string' ? projectSlug : '';
  // The project comes with the key, in one query; it is only looked at in its turn below.
  const { principal, project } = await authenticate(state, slug);

  state.rateLimit = await limits().perKey.limit(principal.keyId);
  if (!state.rateLimit.success) throw new AppError('too_many_requests', 'Too many requests');
  markKeyUsed(db(), principal.keyId, (error) => logEvent('error', 'api_key.mark_used_failed', { error }));

  if (!principal.scopes.includes(scope)) throw forbidden(`Missing required scope: ${scope}`);

  if (!project) throw notFound('Project not found');
  if (principal.projectId !== null && principal.projectId !== project.id) {
    throw forbidden(`API key does not have access to project ${project.slug}`);
  }
  return { principal, project };
}

async function authenticate(state: RequestState, projectSlug: string): Promise<{ principal: ApiPrincipal; project: KeyProject | null }> {
  const block = blockedAddresses.get(state.clientAddress);
  if (block) {
    if (block.reset > Date.now()) {
      state.rateLimit = block;
      throw new AppError('too_many_requests', 'Too many requests');
    }
    blockedAddresses.delete(state.clientAddress);
  }
  const presented = readPresentedKey(state.headers);
  const access = presented ? await authenticateKey(db(), presented, projectSlug) : null;
  if (access) return access;

  const decision = await limits().badKeyPerAddress.limit(state.clientAddress);
  if (!decision.success) {
    blockedAddresses.set(state.clientAddress, decision);
    state.rateLimit = decision;
    throw new AppError('too_many_requests', 'Too many requests');
  }
  throw new AppError('unauthorized', INVALID_KEY);
}

/** The headers every keyed response carries, 429s with Retry-After in seconds. */
export function rateLimitHeaders(decision: RateLimitDecision | undefined, statusCode: number): Record<string, string> {
  if (!decision) return {};
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.reset / 1000)),
  };
  if (statusCode === 429) headers['Retry-After'] = String(Math.max(1, Math.ceil((decision.reset - Date.now()) / 1000)));
  return headers;
}
