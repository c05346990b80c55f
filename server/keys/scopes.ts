export const SCOPES = ['task:read', 'task:create', 'task:update'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What each scope lets its holder do, as the key form, the consent page and the API document say it. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'task:read': 'Read statuses, labels, members, tasks, comments and attachments',
  'task:create': 'Create tasks and upload attachments',
  'task:update': 'Change and delete tasks, add comments',
};
