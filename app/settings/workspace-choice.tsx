import Link from 'next/link';
import type { WorkspaceAccess } from '@/server/auth/workspace-access';
import { NavTabs } from '../ui/app-shell';
import { Button } from '../ui/button';
import { Callout } from '../ui/feedback';
import { ControlGroup } from '../ui/form';
import hidden from '../ui/visually-hidden.module.css';
import styles from './workspace-choice.module.css';

/** The settings pages, each about one workspace at a time: a page added here joins the tabs. */
const PAGES = [
  { path: '/settings/api-keys', name: 'API keys' },
  { path: '/settings/webhooks', name: 'Webhooks' },
  { path: '/settings/apps', name: 'Connected apps' },
  { path: '/settings/audit-log', name: 'Audit log' },
  { path: '/settings/requests', name: 'Requests' },
  { path: '/settings/usage', name: 'Usage' },
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
    <section aria-labelledby="picker-heading" className={styles.picker}>
      <h2 id="picker-heading">Choose a workspace</h2>
      {asked && (
        <Callout tone="danger" role="alert">
          You are not a member of a workspace called “{asked}”.
        </Callout>
      )}
      <ul>
        {workspaces.map(({ workspace, role }) => (
          <li key={workspace.id}>
            <Link href={pageUrl(path, workspace.slug)}>{workspace.name}</Link>
            <span className={styles.role}>{role}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The tabs between the settings pages, keeping the workspace. */
export function SettingsNav({ path, current }: { path: SettingsPath; current: WorkspaceAccess | undefined }) {
  return (
    <NavTabs
      label="Settings"
      items={PAGES.map((page) => ({
        href: current ? pageUrl(page.path, current.workspace.slug) : page.path,
        name: page.name,
        current: page.path === path,
      }))}
    />
  );
}

/** Another workspace of the same page: a plain GET form, so it works before the page's script has loaded. */
export function WorkspaceSwitcher({
  path,
  workspaces,
  current,
}: {
  path: SettingsPath;
  workspaces: WorkspaceAccess[];
  current: WorkspaceAccess;
}) {
  return (
    <form action={path} method="get" aria-label="Switch workspace">
      <ControlGroup>
        <label htmlFor="workspace-switch" className={hidden.visuallyHidden}>
          Workspace
        </label>
        <select id="workspace-switch" name="workspace" defaultValue={current.workspace.slug}>
          {workspaces.map(({ workspace }) => (
            <option key={workspace.id} value={workspace.slug}>
              {workspace.name}
            </option>
          ))}
        </select>
        <Button type="submit">Switch</Button>
      </ControlGroup>
    </form>
  );
}
