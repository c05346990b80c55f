import { createHmac } from 'node:crypto';
import type { RequestFacts } from '../audit/context';
import { noteStreamed } from '../audit/record';
import { signInAuditStatement } from '../audit/sign-in';
import { db } from '../db/client';
import { appSecret } from '../app-secret';

/** Failed sign-ins one account takes in WINDOW_MINUTES before it is refused for the rest of that window. */
export const MAX_FAILURES = 10;
export const WINDOW_MINUTES = 15;

/** The email as a key: not reversible, so a password typed into the email field is never stored. */
function accountKey(email: string): string {
  return createHmac('sha256', appSecret()).update(`sign-in:${email.trim().toLowerCase()}`).digest('hex');
}

export type SignInAttempt =
  { allowed: true; settle(outcome: 'succeeded' | 'failed' | 'not_tried'): Promise<void> } | { allowed: false; retryAt: Date };

/**
 * Books one sign-in attempt on an account before the password is checked. The
 * attempt counts as a failure from the start, so parallel guesses cannot all pass a
 * count taken before any of them failed; settle() then keeps it (a wrong password),
 * clears the account's failures (a right one) or takes it back (not tried at all).
 * Whether the account exists plays no part, so the answers tell nothing about it.
 * The rows are in the database: every process and instance sees the same count.
 * The audit log records a success with the clearing of the count, and a failure (with
 * the lock, once, when it is the failure that sets it) in a statement of its own.
 */
export async function beginSignInAttempt(email: string, request: RequestFacts): Promise<SignInAttempt> {
  const key = accountKey(email);
  await db().$executeRaw`DELETE FROM sign_in_failure WHERE created_at < now() - make_interval(mins => ${WINDOW_MINUTES})`;
  const { id } = await db().signInFailure.create({ data: { accountKey: key }, select: { id: true } });
  const recent = await db().$queryRaw<{ id: string; retry_at: Date }[]>`
    SELECT id, created_at + make_interval(mins => ${WINDOW_MINUTES}) AS retry_at FROM sign_in_failure
    WHERE account_key = ${key} AND created_at > now() - make_interval(mins => ${WINDOW_MINUTES})
    ORDER BY created_at DESC, id LIMIT ${MAX_FAILURES + 1}`;
  if (recent.length > MAX_FAILURES) {
    await db().signInFailure.delete({ where: { id } });
    // Refused attempts are not failures: the lock lifts when the oldest of the last MAX_FAILURES leaves the window.
    const others = recent.filter((row) => row.id !== id);
    return { allowed: false, retryAt: others[MAX_FAILURES - 1]!.retry_at };
  }
  const audit = (action: 'sign_in.succeeded' | 'sign_in.failed' | 'sign_in.locked_out') =>
    signInAuditStatement(db(), email, action, request);
  return {
    allowed: true,
    async settle(outcome) {
      if (outcome === 'succeeded') {
        const [, recorded] = await db().$transaction([
          db().signInFailure.deleteMany({ where: { accountKey: key } }),
          audit('sign_in.succeeded'),
        ]);
        noteStreamed(recorded);
      } else if (outcome === 'failed') {
        // This failure, counted from the start, is the one that reaches the limit: the account is locked from now.
        const locks = recent.length === MAX_FAILURES;
        const outcomes = await db().$transaction([audit('sign_in.failed'), ...(locks ? [audit('sign_in.locked_out')] : [])]);
        outcomes.forEach(noteStreamed);
      } else {
        await db().signInFailure.deleteMany({ where: { id } });
      }
    },
  };
}
