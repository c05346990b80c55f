/**
 * What a task client needs: every key and app the app itself proposes has these, and no more
 * (a new key's and app's preselected scopes, the demo key's).
 */
export const TASK_SCOPES = ['task:read', 'task:create', 'task:update'] as const;
/** Reading the workspace's audit log: never granted unless asked for by name. */
export const AUDIT_READ = 'audit:read';
/**
 * Reading the workspace's request log and usage: never granted unless asked for by name
 * (every key and app reads its own requests without them).
 */
export const ACTIVITY_SCOPES = ['requests:read', 'usage:read'] as const;
/**
 * Managing the workspace's webhook endpoints through the API, as integration platforms subscribe:
 * never granted unless asked for by name.
 */
export const WEBHOOK_MANAGE = 'webhook:manage';
export const SCOPES = [...TASK_SCOPES, AUDIT_READ, ...ACTIVITY_SCOPES, WEBHOOK_MANAGE] as const;
/** The scopes of the MCP server's tools: all but the audit log's and the webhooks', which are no tools (server/mcp/tools.ts). */
export const MCP_SCOPES = [...TASK_SCOPES, ...ACTIVITY_SCOPES] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What each scope lets its holder do, as the key form, the consent page and the API document say it. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'task:read': 'Read statuses, labels, members, tasks, comments and attachments',
  'task:create': 'Create tasks and upload attachments',
  'task:update': 'Change and delete tasks, add comments',
  'audit:read': "Read and export the workspace's audit log (needs a key for every project)",
  'requests:read': "Read the workspace's request log: every request of every key and app",
  'usage:read': "Read the workspace's usage: requests per key, app and operation over time",
  'webhook:manage': "Add, change and remove the workspace's webhook endpoints, and read their deliveries (needs a key for every project)",
};
