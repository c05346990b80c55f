import { sessionUser, type SignedInUser } from '../auth/session';

// The one call that needs no session: the first owner's setup, before anyone can sign in.
const OPEN_CALLS = new Set(['setup.createOwner']);

/**
 * The signed-in person a settings API request is for, looked up from its cookie
 * before its body is read, so that a caller without a session costs one lookup and
 * never a body; `undefined` when every call it makes needs no session. A batch
 * (`keys.list,keys.create?batch=1`) needs one when any of its calls does.
 */
export async function sessionBeforeBody(request: Request, endpoint: string): Promise<SignedInUser | null | undefined> {
  const path = new URL(request.url).pathname.slice(endpoint.length + 1);
  const calls = decodeURIComponent(path).split(',');
  if (calls.every((call) => OPEN_CALLS.has(call))) return undefined;
  return sessionUser(request.headers);
}
