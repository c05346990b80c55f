import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { openText, sealText } from '../app-secret';
import type { Db } from '../db/client';
import { env } from '../env';
import { logThrottled } from '../log';

/**
 * Taken by every transaction that makes or uses up the setup code, so that a code is
 * never made after the first owner's transaction has deleted it. Any constant works:
 * it only has to be the same for every process.
 */
export const SETUP_LOCK = 7_310_442;

const PURPOSE = 'setup-code';
// Crockford's base32: no I, L, O or U, so a code read off a log is typed back unambiguously.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 5;
const GROUP_LENGTH = 4;

/** 20 symbols of 5 bits (100 bits), in groups of four: `7KQ2-M9XD-…`. */
export function newSetupCode(): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** A made code as typed: case, spaces and dashes aside, and the letters Crockford reads as digits. */
function normalized(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/**
 * The code that stands while the database has no user: SETUP_TOKEN when the operator
 * chose one, else the one made for this database, made now if there is none (or the
 * one there was sealed under another APP_SECRET). One statement decides which of several
 * instances' codes is kept, and each reads that one; none is made once a user exists
 * (null then).
 */
export async function standingSetupCode(db: Db): Promise<{ code: string; fromEnv: boolean } | null> {
  // Asked on every opening of /setup: once anyone exists, one count answers, with no lock taken.
  if ((await db.user.count()) > 0) return null;
  const token = env().setupToken;
  if (token) return { code: token, fromEnv: true };
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
    if ((await tx.user.count()) > 0) return null;
    const stored = await tx.setupCode.findUnique({ where: { id: 1 }, select: { codeSealed: true } });
    const opened = stored ? readable(stored.codeSealed) : null;
    if (opened) return { code: opened, fromEnv: false };
    const code = newSetupCode();
    await tx.setupCode.upsert({
      where: { id: 1 },
      create: { id: 1, codeSealed: sealText(PURPOSE, code) },
      update: { codeSealed: sealText(PURPOSE, code), createdAt: new Date() },
    });
    return { code, fromEnv: false };
  });
}

function readable(sealed: string): string | null {
  try {
    return openText(PURPOSE, sealed);
  } catch {
    return null;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether `typed` is the standing code, compared in constant time (digests of equal
 * length). A made code is compared as normalized(); SETUP_TOKEN exactly as it is set.
 * False when no code stands: one is made only when /setup is opened or the server starts.
 */
export async function setupCodeMatches(db: Db, typed: string): Promise<boolean> {
  const token = env().setupToken;
  let expected: string | null = token;
  if (!token) {
    const stored = await db.setupCode.findUnique({ where: { id: 1 }, select: { codeSealed: true } });
    const opened = stored ? readable(stored.codeSealed) : null;
    expected = opened === null ? null : normalized(opened);
  }
  const given = token ? typed.trim() : normalized(typed);
  return expected !== null && timingSafeEqual(digest(given), digest(expected));
}

/** The line that says where the code is used: the one line of the log that holds it. */
export function setupCodeLine(standing: { code: string; fromEnv: boolean }, appUrl: string): string {
  const code = standing.fromEnv ? 'the value of SETUP_TOKEN' : standing.code;
  return `Setup code: ${code} (enter it at ${appUrl}/setup to create the first workspace and its owner; it works until then)`;
}

// A page opened in a loop must not flood the log: one line at once, then at most one per interval.
const LOG_INTERVAL_MS = 10_000;

/**
 * Logs the standing code, as the page at /setup is opened (on Vercel: the function's
 * log, which only the project's members read). Answers whether setup is still open.
 */
export async function announceSetupCode(db: Db, appUrl: string): Promise<boolean> {
  const standing = await standingSetupCode(db);
  if (!standing) return false;
  logThrottled('setup.code', LOG_INTERVAL_MS, { message: setupCodeLine(standing, appUrl) });
  return true;
}
