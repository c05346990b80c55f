import { z } from 'zod';
import type { Db } from '../db/client';
import { SCOPES } from '../keys/scopes';
import { WINDOW_MS, type RateLimitDecision } from '../ratelimit/limiter';
import { dateTime, int32, MAX_NAME, uuid } from '../schemas/common';
import { MAX_SLUG, projectRefSchema } from '../schemas/workspace';
import type { ApiPrincipal } from './api-key';

export const meSchema = z
  .object({
    kind: z.enum(['api_key', 'app']).meta({ description: 'An API key, or an app a person connected with OAuth' }),
    id: uuid().meta({ description: 'The key, or the connected app as the apps list and the request log name it' }),
    name: z.string().max(MAX_NAME).meta({ example: 'CI bot' }),
    workspace: z.object({ slug: z.string().max(MAX_SLUG).meta({ example: 'acme' }), name: z.string().max(MAX_NAME) }),
    scopes: z.array(z.enum(SCOPES)).max(SCOPES.length),
    project: projectRefSchema.nullable().meta({ description: 'The one project the key or app is limited to; null: every project' }),
    expiresAt: dateTime()
      .nullable()
      .meta({ description: "When the credential stops working: the key's expiry (null: never), or the app's access token's" }),
    createdAt: dateTime().meta({ description: 'When the key was created, or the app approved' }),
    rateLimit: z.object({
      limit: int32().meta({ description: 'Requests allowed per window' }),
      windowSeconds: int32(1),
      remaining: int32()
        .nullable()
        .meta({ description: "Requests left in the window after this one; null while the limiter's store is unreachable" }),
      resetAt: dateTime().nullable().meta({ description: "When the window ends; null while the limiter's store is unreachable" }),
    }),
  })
  .meta({ id: 'Me', description: 'The key or app a request is made with. Never a secret, a hash or a token.' });
export type Me = z.infer<typeof meSchema>;

/**
 * What the caller may learn of itself: its principal as the gate found it, with its
 * workspace's and project's names in one statement, and the rate limit this very
 * request was counted against.
 */
export async function describePrincipal(db: Db, principal: ApiPrincipal, rateLimit: RateLimitDecision | undefined): Promise<Me> {
  const row = await db.apiKey.findUniqueOrThrow({
    where: { id: principal.keyId },
    select: {
      createdAt: true,
      workspace: { select: { slug: true, name: true } },
      project: { select: { id: true, slug: true, name: true } },
    },
  });
  const metered = rateLimit && !('unmetered' in rateLimit) ? rateLimit : null;
  return {
    kind: principal.kind === 'key' ? 'api_key' : 'app',
    id: principal.keyId,
    name: principal.keyName,
    workspace: row.workspace,
    scopes: principal.scopes,
    project: row.project,
    expiresAt: principal.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    rateLimit: {
      limit: rateLimit?.limit ?? 0,
      windowSeconds: WINDOW_MS / 1000,
      remaining: metered?.remaining ?? null,
      resetAt: metered ? new Date(metered.reset).toISOString() : null,
    },
  };
}
