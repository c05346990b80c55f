import { bucketOf, emptyHistogram } from './histogram';
import { statusClassOf, type StatusClass } from './status-class';

/** What usage counts of one answered request. */
export interface CountedRequest {
  occurredAt: Date;
  workspaceId: string;
  principalId: string;
  principalKind: 'key' | 'app';
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

/** The requests of one minute, one key or app, one operation and one status class. */
export interface UsageMinute {
  minute: Date;
  workspaceId: string;
  principalId: string;
  principalKind: 'key' | 'app';
  method: string;
  route: string;
  statusClass: StatusClass;
  requests: number;
  histogram: number[];
}

const MINUTE_MS = 60_000;

/** Requests counted into their minutes, the rows a flush adds to what is stored. */
export function countByMinute(requests: readonly CountedRequest[]): UsageMinute[] {
  const minutes = new Map<string, UsageMinute>();
  for (const request of requests) {
    const minute = Math.floor(request.occurredAt.getTime() / MINUTE_MS) * MINUTE_MS;
    const statusClass = statusClassOf(request.status);
    const key = [minute, request.principalId, request.method, request.route, statusClass].join(' ');
    let row = minutes.get(key);
    if (!row) {
      row = {
        minute: new Date(minute),
        workspaceId: request.workspaceId,
        principalId: request.principalId,
        principalKind: request.principalKind,
        method: request.method,
        route: request.route,
        statusClass,
        requests: 0,
        histogram: emptyHistogram(),
      };
      minutes.set(key, row);
    }
    row.requests += 1;
    row.histogram[bucketOf(request.durationMs)]! += 1;
  }
  return [...minutes.values()];
}
