import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '../../server/db/generated/enums';
import { db } from '../../server/db/client';
import type { inferRouterOutputs } from '@trpc/server';
import { env } from '../../server/env';
import type { SettingsRouter } from '../../server/settings/router';
import { addMember } from '../../server/workspaces/members';
import { loopbackAddress, requestFrom } from './loopback-client';
import { FIXTURE_AUDIT } from './fixtures';

/** The Origin a browser on the app's own pages sends. */
export const appOrigin = () => new URL(env().appUrl).origin;

// The people a test file creates share one password, hashed once: at the app's cost a hash
// takes a core a fifth of a second, seconds on a busy machine. Signing in still checks it
// at that cost, as the app does.
const PASSWORD = `pw-${randomBytes(8).toString('hex')}`;
let passwordHash: Promise<string> | undefined;

/** A workspace member who can sign in with a password, stored as addMember stores one. */
export async function createPerson(workspaceId: string, role: Role) {
  const email = `${role}-${randomBytes(4).toString('hex')}@acme.test`;
  passwordHash ??= import('better-auth/crypto').then(({ hashPassword }) => hashPassword(PASSWORD));
  const person = await addMember(db(), { workspaceId, email, name: `An ${role}`, role }, FIXTURE_AUDIT);
  await db().account.create({
    data: { id: randomUUID(), providerId: 'credential', accountId: person.id, userId: person.id, password: await passwordHash },
  });
  return { ...person, password: PASSWORD };
}

export interface SignInResult {
  status: number;
  /** The Cookie header a browser would send back, empty when sign-in failed. */
  cookie: string;
  setCookies: string[];
  /** better-auth's answer: the user, or a message why not. */
  body: { user?: { email: string }; message?: string } | null;
  retryAfter: string | undefined;
  /** The X-Request-Id the answer carried. */
  requestId: string | undefined;
}

/**
 * Signs in through better-auth's endpoint, as the sign-in page at `origin` does, from
 * `from` or else a loopback address of its own: sign-in is limited per client address.
 */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  origin = appOrigin(),
  from = loopbackAddress(),
): Promise<SignInResult> {
  const response = await requestFrom(from, `${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  const setCookies = response.headers['set-cookie'] ?? [];
  return {
    status: response.status,
    setCookies,
    cookie: setCookies.map((c) => c.split(';')[0]).join('; '),
    body: response.body ? JSON.parse(response.body) : null,
    retryAfter: response.headers['retry-after'],
    requestId: response.headers['x-request-id'] as string | undefined,
  };
}

/** Signs out through better-auth's endpoint, as the page at `origin` does; resolves with the status. */
export async function signOut(baseUrl: string, cookie: string, origin = appOrigin()): Promise<number> {
  const response = await fetch(`${baseUrl}/api/auth/sign-out`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie },
    body: '{}',
  });
  return response.status;
}

type Outputs = inferRouterOutputs<SettingsRouter>;
/** A procedure of the settings router by its dotted name, as its URL holds it: `keys.list`. */
type SettingsPath = { [R in keyof Outputs]: `${R & string}.${keyof Outputs[R] & string}` }[keyof Outputs];
type OutputOf<P extends SettingsPath> = P extends `${infer R extends keyof Outputs}.${infer Q}`
  ? Q extends keyof Outputs[R]
    ? Outputs[R][Q]
    : never
  : never;

/** The error a settings call answers, as tRPC shapes it (server/settings/trpc.ts adds fieldErrors). */
export interface SettingsError {
  message: string;
  data: { code: string; httpStatus: number; fieldErrors?: Record<string, string> };
}

/** The internal settings router as the page calls it: tRPC over HTTP, one call per request. */
export function settingsClient(baseUrl: string, options: { cookie?: string; origin?: string | null } = {}) {
  const headers = (): Record<string, string> => {
    const result: Record<string, string> = {};
    if (options.cookie) result.cookie = options.cookie;
    const origin = options.origin === undefined ? appOrigin() : options.origin;
    if (origin !== null) result.origin = origin;
    return result;
  };
  // One of data and error is there, as status says: typed as present, reading the absent one fails the test.
  const read = async <P extends SettingsPath>(response: Response) => {
    const body = (await response.json()) as { result: { data: OutputOf<P> }; error: SettingsError };
    return { status: response.status, data: body.result?.data, error: body.error, requestId: response.headers.get('x-request-id') };
  };
  return {
    query: async <P extends SettingsPath>(path: P, input: unknown) =>
      read<P>(await fetch(`${baseUrl}/api/internal/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: headers() })),
    mutate: async <P extends SettingsPath>(path: P, input: unknown) =>
      read<P>(
        await fetch(`${baseUrl}/api/internal/${path}`, {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify(input),
        }),
      ),
  };
}
