import Link from 'next/link';
import type { WorkspaceAccess } from '@/server/auth/workspace-access';
import { SignOutButton } from './sign-out-button';
import styles from './settings.module.css';

/** The settings pages, each about one workspace at a time. */
const PAGES = [
  { path: '/settings/api-keys', name: 'API keys' },
  { path: '/settings/webhooks', name: 'Webhooks' },
] as const;
export type SettingsPath = (typeof PAGES)[number]['path'];

const pageUrl = (path: SettingsPath, slug: string) => `${path}?workspace=${encodeURIComponent(slug)}`;

/** The workspace a page shows: the one asked for in ?workspace=, or the only one there is. */
export function chosenWorkspace(workspaces: WorkspaceAccess[], asked: string | string[] | undefined) {
  const askedSlug = typeof asked === 'string' ? asked : undefined;
  const current = askedSlug
    ? workspaces.find(({ workspace }) => workspace.slug === askedSlug)
    : workspaces.length === 1
      ? workspaces[0]
      : undefined;
  return { current, askedSlug };
}

export function WorkspacePicker({
  path,
  workspaces,
  asked,
}: {
  path: SettingsPath;
  workspaces: WorkspaceAccess[];
  asked: string | undefined;
}) {
  return (
    <section aria-labelledby="picker-heading">
      <h2 id="picker-heading">Choose a workspace</h2>
      {asked && <p role="alert">You are not a member of a workspace called “{asked}”.</p>}
      <ul className={styles.picker}>
        {workspaces.map(({ workspace, role }) => (
          <li key={workspace.id}>
            <Link href={pageUrl(path, workspace.slug)}>{workspace.name}</Link> <span className={styles.muted}>({role})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The bar above every settings page: the other page of the same workspace, switching workspace, signing out. */
export function SettingsTopbar({
  path,
  email,
  workspaces,
  current,
}: {
  path: SettingsPath;
  email: string;
  workspaces: WorkspaceAccess[];
  current: WorkspaceAccess | undefined;
}) {
  return (
    <header className={styles.topbar}>
      <strong>Task API</strong>
      <nav aria-label="Settings">
        {PAGES.map((page, index) => (
          <span key={page.path}>
            {index > 0 && ' · '}
            {page.path === path ? (
              <span aria-current="page">{page.name}</span>
            ) : (
              <Link href={current ? pageUrl(page.path, current.workspace.slug) : page.path}>{page.name}</Link>
            )}
          </span>
        ))}
      </nav>
      <span className={styles.muted}>
        {email}
        {workspaces.length > 1 && current && (
          <>
            {' · '}
            <Link href={path}>Switch workspace</Link>
          </>
        )}
        {' · '}
        <SignOutButton />
      </span>
    </header>
  );
}
