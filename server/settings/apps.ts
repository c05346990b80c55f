import { z } from 'zod';
import { db } from '../db/client';
import { SCOPES } from '../keys/scopes';
import { approve, deny } from '../oauth/consent';
import { findGrant, listGrants, revokeGrant, type Grant } from '../oauth/grants';
import { auditTrail } from './audit-trail';
import { recentRequests } from './recent-requests';
import { appManagerProcedure, router, signedInProcedure } from './trpc';

const oauthQuery = z.string().max(8192);

/** What the page shows of a grant, dates as ISO text so it travels as JSON. */
function toAppView(grant: Grant) {
  return {
    ...grant,
    project: grant.project && { id: grant.project.id, name: grant.project.name },
    createdAt: grant.createdAt.toISOString(),
    lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
  };
}

export type AppView = ReturnType<typeof toAppView>;

/** The consent page's answers and the connected apps page: owners and admins of the workspace. */
export const appsRouter = router({
  approve: appManagerProcedure
    .input(z.object({ oauthQuery, scopes: z.array(z.enum(SCOPES)), projectId: z.uuid().nullable() }))
    .mutation(async ({ ctx, input }) => ({
      redirectTo: await approve(db(), {
        headers: ctx.headers,
        oauthQuery: input.oauthQuery,
        userId: ctx.user.id,
        workspaceId: ctx.workspace.id,
        scopes: input.scopes,
        projectId: input.projectId,
        audit: ctx.audit,
      }),
    })),

  deny: signedInProcedure
    .input(z.object({ oauthQuery }))
    .mutation(async ({ ctx, input }) => ({ redirectTo: await deny(db(), ctx.headers, input.oauthQuery) })),

  list: appManagerProcedure.query(async ({ ctx }) => (await listGrants(db(), ctx.workspace.id)).map(toAppView)),

  /** An app's page: the app, its newest requests and its audit trail. */
  get: appManagerProcedure.input(z.object({ id: z.string() })).query(async ({ ctx, input }) => {
    const app = await findGrant(db(), ctx.workspace.id, input.id);
    const [requests, audit] = await Promise.all([
      recentRequests(ctx.workspace.id, app.id, 'app'),
      auditTrail(ctx.workspace.id, 'oauth_app', app.id),
    ]);
    return { app: toAppView(app), requests, audit };
  }),

  revoke: appManagerProcedure
    .input(z.object({ id: z.string() }))
    .mutation(async ({ ctx, input }) => toAppView(await revokeGrant(db(), ctx.workspace.id, input.id, ctx.audit))),
});
