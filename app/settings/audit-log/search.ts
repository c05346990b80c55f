import type { z } from 'zod';
import {
  ACTOR_TYPES,
  AUDIT_ACTION_GROUPS,
  TARGET_TYPES,
  type ActorType,
  type TargetType,
  type auditEventsQuery,
} from '@/server/schemas/audit';
import { changeCursor } from '@/server/schemas/task';

export type AuditSearchParams = Record<string, string | string[] | undefined>;

/** The time a list looks back over, as its select offers it. */
export const PERIODS = {
  '24h': ['Last 24 hours', 1],
  '7d': ['Last 7 days', 7],
  '30d': ['Last 30 days', 30],
  '90d': ['Last 90 days', 90],
} as const;
type Period = keyof typeof PERIODS;

export interface AuditSearch {
  group: string | undefined;
  actorType: ActorType | undefined;
  actorId: string | undefined;
  targetType: TargetType | undefined;
  targetId: string | undefined;
  period: Period | undefined;
  after: string | undefined;
  event: string | undefined;
  /** What the settings API is asked for. */
  query: z.input<typeof auditEventsQuery>;
}

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 100) : undefined;
const among = <T extends string>(choices: readonly T[], value: string | undefined) =>
  (choices as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/**
 * The page's filters, kept in its URL so that a view can be linked and reloaded: a
 * value the page does not offer is dropped rather than refused.
 */
export function auditSearch(params: AuditSearchParams, now = Date.now()): AuditSearch {
  const search = {
    group: among(AUDIT_ACTION_GROUPS, one(params.action)),
    actorType: among(ACTOR_TYPES, one(params.actorType)),
    actorId: one(params.actorId),
    targetType: among(TARGET_TYPES, one(params.targetType)),
    targetId: one(params.targetId),
    period: among(Object.keys(PERIODS) as Period[], one(params.period)),
    after: [one(params.after)].find((cursor) => cursor && changeCursor().safeParse(cursor).success),
    event: one(params.event),
  };
  const query = {
    action: search.group,
    actorType: search.actorType,
    actorId: search.actorId,
    targetType: search.targetType,
    targetId: search.targetId,
    since: search.period && new Date(now - PERIODS[search.period][1] * 86_400_000).toISOString(),
    after: search.after,
  };
  return { ...search, query };
}

/** The page's URL with these filters and `changes` applied. */
export function auditHref(workspace: string, search: AuditSearch, changes: Partial<Record<'after' | 'event', string | undefined>>): string {
  const params = new URLSearchParams({ workspace });
  const values: Record<string, string | undefined> = {
    action: search.group,
    actorType: search.actorType,
    actorId: search.actorId,
    targetType: search.targetType,
    targetId: search.targetId,
    period: search.period,
    after: search.after,
    event: search.event,
    ...changes,
  };
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  return `/settings/audit-log?${params}`;
}
