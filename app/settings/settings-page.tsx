import type { ReactNode } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser } from '@/server/auth/session';
import { canManageKeys, userWorkspaces } from '@/server/auth/workspace-access';
import { db } from '@/server/db/client';
import { chosenWorkspace, SettingsTopbar, WorkspacePicker, type SettingsPath } from './workspace-choice';
import styles from './settings.module.css';

/**
 * The frame every settings page shares: sign-in, the choice of workspace and the
 * refusal of members who may not manage it; `content` renders for an owner or admin
 * of the chosen workspace.
 */
export async function SettingsPage({
  path,
  title,
  searchParams,
  refusal,
  content,
}: {
  path: SettingsPath;
  title: string;
  searchParams: Promise<{ workspace?: string | string[] }>;
  /** What a member who is neither owner nor admin reads instead. */
  refusal: (workspaceName: string) => ReactNode;
  content: (workspaceSlug: string, requestHeaders: Headers) => ReactNode;
}) {
  const requestHeaders = await headers();
  const user = await sessionUser(requestHeaders);
  if (!user) redirect('/sign-in');
  const workspaces = await userWorkspaces(db(), user.id);
  const { current, askedSlug } = chosenWorkspace(workspaces, (await searchParams).workspace);
  return (
    <>
      <SettingsTopbar path={path} email={user.email} workspaces={workspaces} current={current} />
      <main>
        <h1>
          {title}
          {current && <span className={styles.muted}> · {current.workspace.name}</span>}
        </h1>
        {workspaces.length === 0 ? (
          <p role="status">You are not a member of any workspace yet. Ask a workspace owner to add you.</p>
        ) : !current ? (
          <WorkspacePicker path={path} workspaces={workspaces} asked={askedSlug} />
        ) : !canManageKeys(current.role) ? (
          <p role="status" className={styles.notice}>
            {refusal(current.workspace.name)}
          </p>
        ) : (
          content(current.workspace.slug, requestHeaders)
        )}
      </main>
    </>
  );
}
