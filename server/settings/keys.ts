import { db } from '../db/client';
import { z } from 'zod';
import { createApiKey, findApiKey, listApiKeys, revokeApiKey } from '../keys/manage';
import { keyManagerProcedure, router } from './trpc';
import { keyCreateInput, keyRevokeInput } from './key-inputs';
import { toKeyView } from './key-view';
import { auditTrail } from './audit-trail';
import { recentRequests } from './recent-requests';

export const keysRouter = router({
  list: keyManagerProcedure.query(async ({ ctx }) => (await listApiKeys(db(), ctx.workspace.id)).map(toKeyView)),

  /** A key's page: the key, its newest requests and its audit trail. */
  get: keyManagerProcedure.input(z.object({ id: z.string() })).query(async ({ ctx, input }) => {
    const key = await findApiKey(db(), ctx.workspace.id, input.id);
    const [requests, audit] = await Promise.all([
      recentRequests(ctx.workspace.id, key.id, 'key'),
      auditTrail(ctx.workspace.id, 'api_key', key.id),
    ]);
    return { key: toKeyView(key), requests, audit };
  }),

  // The secret leaves the server here and only here: the page shows it once.
  create: keyManagerProcedure.input(keyCreateInput).mutation(async ({ ctx, input }) => {
    const { expiry, name, scopes, projectId } = input;
    const created = await createApiKey(db(), ctx.workspace.id, { name, scopes, projectId, expiresAt: expiry }, ctx.user.id, ctx.audit);
    const { key: secret, ...key } = created;
    return { key: toKeyView(key), secret };
  }),

  revoke: keyManagerProcedure
    .input(keyRevokeInput)
    .mutation(async ({ ctx, input }) => toKeyView(await revokeApiKey(db(), ctx.workspace.id, input.id, ctx.audit))),
});
