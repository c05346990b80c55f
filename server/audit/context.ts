import { userInfo } from 'node:os';
// Browsers send a few hundred characters; more would be kept to no purpose.
import { MAX_USER_AGENT, type ActorType } from '../schemas/audit';

export interface AuditActor {
  type: ActorType;
  id: string | null;
  /** As it was when the event happened. */
  name: string | null;
}

/** Where a request came from, as the edge decided it (server/http/request-facts.ts). */
export interface RequestFacts {
  ip: string | null;
  userAgent: string | null;
  /** The X-Request-Id the request answered with; a CLI run's own id. */
  requestId: string | null;
}

/** A request's User-Agent as the log keeps it. */
export const userAgentOf = (headers: Headers) => headers.get('user-agent')?.slice(0, MAX_USER_AGENT) ?? null;

/** Who made a change and from where: what every event of one request or command shares. */
export interface AuditContext extends RequestFacts {
  actor: AuditActor;
}

/** A signed-in person acting through the settings pages, the consent page or sign-in. */
export function personContext(person: { id: string; name: string }, request: RequestFacts): AuditContext {
  return { actor: { type: 'person', id: person.id, name: person.name }, ...request };
}

/** The admin CLI: the operating system's user who ran it, and one id for the run. */
export function cliContext(runId: string): AuditContext {
  let name: string | null;
  try {
    name = userInfo().username;
  } catch {
    name = null;
  }
  return { actor: { type: 'cli', id: null, name }, ip: null, userAgent: null, requestId: runId };
}

/** The server acting on its own (a webhook endpoint disabled after its retries ran out, a test's fixtures). */
export function systemContext(name: string): AuditContext {
  return { actor: { type: 'system', id: null, name }, ip: null, userAgent: null, requestId: null };
}
