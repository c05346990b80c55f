import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { db } from '../db/client';
import { env } from '../env';
import { appSecret } from '../secret';
import { passwordSchema } from '../workspaces/members';
import { isSameOrigin } from './origin';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Secure cookies everywhere but on the developer's own machine, which serves plain HTTP. */
export function needsSecureCookies(appUrl: string): boolean {
  const url = new URL(appUrl);
  return url.protocol === 'https:' || !LOOPBACK_HOSTS.has(url.hostname);
}

function createAuth() {
  const { appUrl, appOrigins } = env();
  return betterAuth({
    baseURL: appUrl,
    // A preview opened at its branch alias signs in there, not at APP_URL.
    trustedOrigins: appOrigins,
    basePath: '/api/auth',
    secret: appSecret(),
    database: prismaAdapter(db(), { provider: 'postgresql' }),
    // Users come from /setup, the admin CLI or the seed: nobody signs themselves up.
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: passwordSchema.minLength ?? 8,
      maxPasswordLength: passwordSchema.maxLength ?? 128,
    },
    telemetry: { enabled: false },
    advanced: {
      useSecureCookies: needsSecureCookies(appUrl),
      // The library's defaults too, stated here because the spec promises them.
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // User ids are UUID columns; the library's "uuid" mode would leave session and
      // account ids to database defaults those tables do not have.
      database: { generateId: () => randomUUID() },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let cached: Auth | undefined;

/** Built on first use: `next build` loads this module with no database configured. */
export function auth(): Auth {
  cached ??= createAuth();
  return cached;
}

export interface SignedInUser {
  id: string;
  name: string;
  email: string;
}

/** The user behind a request's session cookie, or null. */
export async function sessionUser(headers: Headers): Promise<SignedInUser | null> {
  const session = await auth().api.getSession({ headers });
  if (!session) return null;
  return { id: session.user.id, name: session.user.name, email: session.user.email };
}

/**
 * better-auth's endpoints behind the same rule as every other mutation: its own
 * check lets a request without cookies through, which would allow login CSRF.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD' && !isSameOrigin(request.headers, env().appOrigins)) {
    return Response.json({ message: 'Cross-site request refused' }, { status: 403 });
  }
  return auth().handler(request);
}
