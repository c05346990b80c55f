export const SCOPES = ['task:read', 'task:create', 'task:update', 'requests:read', 'usage:read'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a new key or app is offered already chosen, and the demo key holds: the
 * scopes on tasks. Reading the workspace's request log and usage is never granted
 * unless asked for by name (every key and app reads its own requests without it).
 */
export const DEFAULT_SCOPES: readonly Scope[] = ['task:read', 'task:create', 'task:update'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What each scope lets its holder do, as the key form, the consent page and the API document say it. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'task:read': 'Read statuses, labels, members, tasks, comments and attachments',
  'task:create': 'Create tasks and upload attachments',
  'task:update': 'Change and delete tasks, add comments',
  'requests:read': "Read the workspace's request log: every request of every key and app",
  'usage:read': "Read the workspace's usage: requests per key, app and operation over time",
};
