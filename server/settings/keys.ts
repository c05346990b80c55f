import { db } from '../db/client';
import { createApiKey, listApiKeys, revokeApiKey } from '../keys/manage';
import { keyManagerProcedure, router } from './trpc';
import { keyCreateInput, keyRevokeInput } from './key-inputs';
import { toKeyView } from './key-view';

export const keysRouter = router({
  list: keyManagerProcedure.query(async ({ ctx }) => (await listApiKeys(db(), ctx.workspace.id)).map(toKeyView)),

  // The secret leaves the server here and only here: the page shows it once.
  create: keyManagerProcedure.input(keyCreateInput).mutation(async ({ ctx, input }) => {
    const { expiry, name, scopes, projectId } = input;
    const created = await createApiKey(db(), ctx.workspace.id, { name, scopes, projectId, expiresAt: expiry }, ctx.user.id);
    const { key: secret, ...key } = created;
    return { key: toKeyView(key), secret };
  }),

  revoke: keyManagerProcedure
    .input(keyRevokeInput)
    .mutation(async ({ ctx, input }) => toKeyView(await revokeApiKey(db(), ctx.workspace.id, input.id))),
});
