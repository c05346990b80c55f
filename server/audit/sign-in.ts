import { Prisma } from '../db/generated/client';
import type { RequestFacts } from './context';
import { auditStatement } from './record';

export type SignInAction = 'sign_in.succeeded' | 'sign_in.failed' | 'sign_in.locked_out';

type Runner = Pick<Prisma.TransactionClient, '$queryRaw'>;

/**
 * A sign-in is the person's, not one workspace's: it is recorded in each workspace
 * they belong to, with them as actor and target, in one statement. An email that
 * belongs to nobody is recorded nowhere (no workspace's log is its place), and the
 * email typed is never stored, only the person it names.
 */
export function signInAuditStatement(runner: Runner, email: string, action: SignInAction, request: RequestFacts) {
  const source = Prisma.sql`
    SELECT m.workspace_id, u.id::text AS actor_id, u.name AS actor_name, u.id::text AS target_id, u.name AS target_name
    FROM "user" u JOIN membership m ON m.user_id = u.id WHERE u.email = ${email.trim().toLowerCase()}`;
  return auditStatement(
    runner,
    source,
    { actor: { type: 'person', id: null, name: null }, ...request },
    { action, targetType: 'user', changes: null },
  );
}
