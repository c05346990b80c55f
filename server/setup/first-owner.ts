import { z } from 'zod';
import { personContext, type RequestFacts } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { addMember, emailSchema, passwordSchema } from '../workspaces/members';
import { createWorkspace, nameSchema, slugSchema } from '../workspaces/workspaces';

export const firstOwnerSchema = z.object({
  workspaceName: nameSchema,
  workspaceSlug: slugSchema.min(1, 'must not be empty'),
  name: nameSchema,
  email: z.string().trim().pipe(emailSchema),
  password: passwordSchema,
});
export type FirstOwnerInput = z.infer<typeof firstOwnerSchema>;

// Any constant works: it only has to be the same for every process running setup.
const SETUP_LOCK = 7_310_442;

/** First run: the app has no user yet, so nobody can sign in. */
export async function setupNeeded(db: Db): Promise<boolean> {
  return (await db.user.count()) === 0;
}

/**
 * Creates the first workspace and its owner, once. The advisory lock makes
 * concurrent first runs queue up, so the second sees the first one's user and is refused.
 */
export async function createFirstOwner(db: Db, input: FirstOwnerInput, request: RequestFacts) {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
      if ((await tx.user.count()) > 0) throw new AppError('forbidden', 'Setup is already done: sign in instead');
      const workspace = await createWorkspace(tx, { slug: input.workspaceSlug, name: input.workspaceName });
      const owner = await addMember(
        tx,
        {
          workspaceId: workspace.id,
          email: input.email,
          name: input.name,
          role: 'owner',
          password: input.password,
        },
        null,
      );
      // One event for the whole setup, by the owner it created.
      await recordAudit(tx, workspace.id, personContext(owner, request), {
        action: 'workspace.owner_set_up',
        target: { type: 'workspace', id: workspace.id, name: workspace.name },
      });
      return { workspace: { slug: workspace.slug, name: workspace.name }, owner: { email: owner.email } };
    },
    // Password hashing runs inside: give it more than the default five seconds.
    { timeout: 30_000, maxWait: 30_000 },
  );
}
