import { db } from '../db/client';
import { listRequests } from '../request-log/list';

/** How many of a key's or app's requests its page lists. */
export const RECENT_REQUESTS = 50;

/**
 * A key's or app's newest requests from the request log, in one statement; the first
 * is its last use, with the address and user agent it came from.
 */
export async function recentRequests(workspaceId: string, principalId: string, principalKind: 'key' | 'app') {
  const { requests } = await listRequests(db(), workspaceId, { principalId, principalKind, limit: RECENT_REQUESTS });
  return requests;
}

export type RecentRequest = Awaited<ReturnType<typeof recentRequests>>[number];
