import type { listApiKeys } from '../keys/manage';

type ListedKey = Awaited<ReturnType<typeof listApiKeys>>[number];

/** What the page shows of a key: never the secret, and dates as ISO text so it travels as JSON. */
export function toKeyView(key: ListedKey) {
  return {
    id: key.id,
    name: key.name,
    hint: key.hint,
    scopes: key.scopes,
    project: key.project && { id: key.project.id, name: key.project.name },
    createdAt: key.createdAt.toISOString(),
    createdBy: key.createdBy?.name ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    state: key.state,
  };
}

export type KeyView = ReturnType<typeof toKeyView>;
