import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { appSecret } from '../app-secret';
import type { Db } from '../db/client';

/** Attempts at the setup code one address makes in WINDOW_MINUTES before it is refused for the rest of that window. */
export const MAX_SETUP_ATTEMPTS = 10;
export const WINDOW_MINUTES = 15;

/**
 * Who an attempt counts against: the client's address, an IPv6 address by its /64 (one
 * host usually holds the whole prefix, and would otherwise have a fresh address for every
 * guess), as an HMAC, so no address is stored in clear.
 */
export function addressKey(ip: string | null): string {
  let holder = ip ?? 'unknown';
  if (ipaddr.isValid(holder)) {
    const parsed = ipaddr.process(holder);
    holder = parsed.kind() === 'ipv6' ? `${parsed.toNormalizedString().split(':').slice(0, 4).join(':')}::/64` : parsed.toString();
  }
  return createHmac('sha256', appSecret()).update(`setup:${holder}`).digest('hex');
}

/**
 * Books one attempt at the setup code before it is compared. Every attempt counts, the
 * right one too, which is the last (its transaction deletes every row, the code with them).
 * The rows are in the database: every process and instance sees the same count.
 */
export async function bookSetupAttempt(db: Db, ip: string | null): Promise<{ allowed: true } | { allowed: false; retryAt: Date }> {
  const key = addressKey(ip);
  await db.$executeRaw`DELETE FROM setup_attempt WHERE created_at < now() - make_interval(mins => ${WINDOW_MINUTES})`;
  const { id } = await db.setupAttempt.create({ data: { addressKey: key }, select: { id: true } });
  const recent = await db.$queryRaw<{ id: string; retry_at: Date }[]>`
    SELECT id, created_at + make_interval(mins => ${WINDOW_MINUTES}) AS retry_at FROM setup_attempt
    WHERE address_key = ${key} AND created_at > now() - make_interval(mins => ${WINDOW_MINUTES})
    ORDER BY created_at DESC, id LIMIT ${MAX_SETUP_ATTEMPTS + 1}`;
  if (recent.length <= MAX_SETUP_ATTEMPTS) return { allowed: true };
  // A refused attempt does not count: the limit lifts when the oldest of the last MAX_SETUP_ATTEMPTS leaves the window.
  await db.setupAttempt.delete({ where: { id } });
  const others = recent.filter((row) => row.id !== id);
  return { allowed: false, retryAt: others[MAX_SETUP_ATTEMPTS - 1]!.retry_at };
}
