import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Scope } from '../keys/scopes';

/** `scope` is set by the procedure builder (server/api/trpc.ts), the rest by `operation`. */
export type PublicMeta = OpenApiMeta<{ successStatus?: 200 | 201; scope?: Scope }>;

const BASE_ERRORS = {
  401: 'Invalid API key: missing, malformed, unknown, revoked or expired',
  403: 'Missing required scope, or project outside the key\'s project scope',
  404: 'Project not found',
  429: 'Too many requests; see Retry-After',
} as const;

/** The OpenAPI metadata of a public operation; every one needs a key. */
export function operation(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: `/${string}`,
  options: { summary: string; tag: string; description?: string; successStatus?: 201; errors?: Record<number, string> },
): PublicMeta {
  return {
    successStatus: options.successStatus,
    openapi: {
      method,
      path,
      protect: true,
      summary: options.summary,
      description: options.description,
      tags: [options.tag],
      errorResponses: { ...BASE_ERRORS, ...options.errors },
    },
  };
}

/** The metadata of every procedure of a router, by procedure path (`tasks.create`). */
export function procedureMetas(router: { _def: { procedures: object } }): Map<string, PublicMeta> {
  const procedures = router._def.procedures as unknown as Record<string, { _def: { meta?: PublicMeta } }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def.meta ?? {}]));
}
