import { randomUUID } from 'node:crypto';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import type { RequestFacts } from '../audit/context';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { db } from '../db/client';
import { env } from '../env';
import { appSecret } from '../app-secret';
import { passwordSchema } from '../workspaces/members';
import { isSameOrigin } from './origin';
import { beginSignInAttempt } from './sign-in-limit';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Secure cookies everywhere but on the developer's own machine, which serves plain HTTP. */
export function needsSecureCookies(appUrl: string): boolean {
  const url = new URL(appUrl);
  return url.protocol === 'https:' || !LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * The options of every better-auth instance of the app: the sign-in's, and the OAuth
 * server's of each origin (server/oauth/provider.ts), which share its sessions.
 */
export function authOptions(baseURL: string) {
  const { appOrigins } = env();
  return {
    baseURL,
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
    // On everywhere (the library turns it off outside production), in the database so that
    // every process and instance counts together: by default, 3 sign-ins per 10 s per address.
    rateLimit: { enabled: true, storage: 'database' },
    advanced: {
      // The address the public API limits by (clientAddress): the edge leaves exactly one in
      // X-Forwarded-For, resolved from the socket and TRUSTED_PROXY_COUNT, and Vercel writes
      // it itself. The session rows record the same address.
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
      // From APP_URL, not baseURL: every instance reads the one session cookie by one name.
      useSecureCookies: needsSecureCookies(env().appUrl),
      // The library's defaults too, stated here because the spec promises them.
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // User ids are UUID columns; the library's "uuid" mode would leave session and
      // account ids to database defaults those tables do not have.
      database: { generateId: () => randomUUID() },
    },
  } satisfies BetterAuthOptions;
}

function createAuth() {
  return betterAuth(authOptions(env().appUrl));
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

const AUTH_PREFIX = '/api/auth';
const SIGN_IN = '/sign-in/email';
/**
 * The endpoints the pages call over HTTP; the library's others (update-user,
 * change-email, list-sessions, …) answer 404. Server code reaches sessions
 * through auth().api, which this list does not limit.
 */
const REACHABLE = new Set([SIGN_IN, '/sign-out', '/get-session']);

/**
 * better-auth's endpoints behind the same rule as every other mutation: its own
 * check lets a request without cookies through, which would allow login CSRF.
 */
export async function handleAuthRequest(request: Request, facts: RequestFacts): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD' && !isSameOrigin(request.headers, env().appOrigins)) {
    return Response.json({ message: 'Cross-site request refused' }, { status: 403 });
  }
  const path = new URL(request.url).pathname.slice(AUTH_PREFIX.length).replace(/\/+$/, '');
  if (!REACHABLE.has(path)) return Response.json({ message: 'Not found' }, { status: 404 });
  const response = path === SIGN_IN && request.method === 'POST' ? await signInLimited(request, facts) : await auth().handler(request);
  return forBrowsers(response);
}

/** Sign-in under the per-account limit (sign-in-limit.ts) as well as the library's per-address one. */
async function signInLimited(request: Request, facts: RequestFacts): Promise<Response> {
  const email = await emailOf(request);
  if (email === null) return auth().handler(request);
  const attempt = await beginSignInAttempt(email, facts);
  if (!attempt.allowed) {
    const seconds = Math.max(1, Math.ceil((attempt.retryAt.getTime() - Date.now()) / 1000));
    return tooManyAttempts(
      `Too many failed sign-ins for this account. Try again in ${inWords(seconds)} (after ${attempt.retryAt.toISOString()}).`,
      seconds,
    );
  }
  let response: Response;
  try {
    response = await auth().handler(request);
  } catch (error) {
    await attempt.settle('not_tried');
    throw error;
  }
  await attempt.settle(response.ok ? 'succeeded' : response.status === 401 ? 'failed' : 'not_tried');
  return response;
}

/** The email of a sign-in body, or null when there is none to count (the library then refuses the body). */
async function emailOf(request: Request): Promise<string | null> {
  try {
    const body: unknown = await request.clone().json();
    const email = (body as { email?: unknown } | null)?.email;
    return typeof email === 'string' && email.trim() !== '' ? email : null;
  } catch {
    return null;
  }
}

const inWords = (seconds: number) => (seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

function tooManyAttempts(message: string, retryAfterSeconds: number): Response {
  return Response.json({ message }, { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } });
}

/**
 * What the library answers, made fit for the pages: its 429 says when to try again
 * (it sends only X-Retry-After), and no JSON body carries the session token, which
 * travels in the HttpOnly cookie alone, out of reach of any script on the page.
 */
async function forBrowsers(response: Response): Promise<Response> {
  if (response.status === 429 && !response.headers.has('retry-after')) {
    const seconds = Number(response.headers.get('x-retry-after')) || 10;
    return tooManyAttempts(`Too many requests from this address. Try again in ${inWords(seconds)}.`, seconds);
  }
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(text && JSON.stringify(withoutTokens(JSON.parse(text))), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Sign-in's `token` and get-session's `session.token`. */
function withoutTokens(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const copy = { ...body };
  delete copy.token;
  if (isRecord(copy.session)) {
    copy.session = { ...copy.session };
    delete (copy.session as Record<string, unknown>).token;
  }
  return copy;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
