import type { Db } from '../db/client';
import { OWN_REQUESTS_HOURS, type RequestsQuery } from '../schemas/request-log';
import { listRequests } from './list';

const WINDOW_MS = OWN_REQUESTS_HOURS * 3_600_000;

export interface Caller {
  workspaceId: string;
  keyId: string;
  kind: 'key' | 'grant';
}

/**
 * A key's or app's own requests of the last 24 hours: what an integrator needs to
 * see why its call failed, without the scope to read the whole workspace's log.
 * An earlier `since` is moved up to the window's start.
 */
export function listOwnRequests(db: Db, caller: Caller, query: RequestsQuery) {
  const windowStart = new Date(Date.now() - WINDOW_MS);
  return listRequests(db, caller.workspaceId, {
    ...query,
    principalId: caller.keyId,
    principalKind: caller.kind === 'grant' ? 'app' : 'key',
    since: query.since && query.since > windowStart ? query.since : windowStart,
  });
}
