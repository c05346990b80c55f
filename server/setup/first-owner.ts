import { z } from 'zod';
import { personContext, type RequestFacts } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { AppError, forbidden, TooManyAttempts } from '../errors';
import { addMember, emailSchema, passwordSchema } from '../workspaces/members';
import { createWorkspace, nameSchema, slugSchema } from '../workspaces/workspaces';
import { bookSetupAttempt } from './attempts';
import { SETUP_LOCK, setupCodeMatches } from './setup-code';

// A made code is 24 characters, SETUP_TOKEN what the operator chose: anything longer is no code of ours.
const MAX_SETUP_CODE_LENGTH = 256;

export const firstOwnerSchema = z.object({
  setupCode: z.string().trim().min(1, "must not be empty: it is in the server's log").max(MAX_SETUP_CODE_LENGTH, 'is not the setup code'),
  workspaceName: nameSchema,
  workspaceSlug: slugSchema.min(1, 'must not be empty'),
  name: nameSchema,
  email: z.string().trim().pipe(emailSchema),
  password: passwordSchema,
});
export type FirstOwnerInput = z.infer<typeof firstOwnerSchema>;

export const SETUP_DONE = 'Setup is already done: sign in instead';
export const WRONG_SETUP_CODE =
  'That is not the setup code. It is in the server\'s log, in the line that starts with "Setup code:" (on Vercel: the deployment\'s function logs)';

/** First run: the app has no user yet, so nobody can sign in. */
export async function setupNeeded(db: Db): Promise<boolean> {
  return (await db.user.count()) === 0;
}

const inWords = (seconds: number) => (seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

/**
 * The first owner's setup as /setup sends it: refused once a user exists, then limited per
 * client address, then refused unless the setup code is right.
 */
export async function setUpFirstOwner(db: Db, input: FirstOwnerInput, request: RequestFacts) {
  if (!(await setupNeeded(db))) throw forbidden(SETUP_DONE);
  const attempt = await bookSetupAttempt(db, request.ip);
  if (!attempt.allowed) {
    const seconds = Math.max(1, Math.ceil((attempt.retryAt.getTime() - Date.now()) / 1000));
    throw new TooManyAttempts(`Too many attempts at the setup code from this address. Try again in ${inWords(seconds)}.`, seconds);
  }
  if (!(await setupCodeMatches(db, input.setupCode))) throw forbidden(WRONG_SETUP_CODE);
  return createFirstOwner(db, input, request);
}

/**
 * Creates the first workspace and its owner, once. The advisory lock makes
 * concurrent first runs queue up, so the second sees the first one's user and is refused.
 * The owner's row deletes the setup code and the attempts at it in the same transaction
 * (a trigger on "user", migration 20261202100000_setup_code, as for any first user).
 */
async function createFirstOwner(db: Db, input: Omit<FirstOwnerInput, 'setupCode'>, request: RequestFacts) {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
      if ((await tx.user.count()) > 0) throw new AppError('forbidden', SETUP_DONE);
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
