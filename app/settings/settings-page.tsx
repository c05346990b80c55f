import type { ReactNode } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser } from '@/server/auth/session';
import { canManageKeys, userWorkspaces } from '@/server/auth/workspace-access';
import { db } from '@/server/db/client';
import { AppShell, PageHeader } from '../ui/app-shell';
import { Callout } from '../ui/feedback';
import { SignOutButton } from './sign-out-button';
import { chosenWorkspace, SettingsNav, WorkspacePicker, WorkspaceSwitcher, type SettingsPath } from './workspace-choice';

/**
 * The frame every settings page shares: sign-in, the choice of workspace and the
 * refusal of members who may not manage it; `content` renders for an owner or admin
 * of the chosen workspace.
 */
export async function SettingsPage({
  path,
  title,
  description,
  searchParams,
  refusal,
  content,
}: {
  path: SettingsPath;
  title: string;
  description: ReactNode;
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
    <AppShell
      nav={<SettingsNav path={path} current={current} />}
      account={
        <>
          <span>{user.email}</span>
          <SignOutButton />
        </>
      }
    >
      <PageHeader
        title={title}
        context={current?.workspace.name}
        description={description}
        aside={current && workspaces.length > 1 && <WorkspaceSwitcher path={path} workspaces={workspaces} current={current} />}
      />
      {workspaces.length === 0 ? (
        <Callout tone="info" role="status">
          You are not a member of any workspace yet. Ask a workspace owner to add you.
        </Callout>
      ) : !current ? (
        <WorkspacePicker path={path} workspaces={workspaces} asked={askedSlug} />
      ) : !canManageKeys(current.role) ? (
        <Callout tone="info" role="status">
          {refusal(current.workspace.name)}
        </Callout>
      ) : (
        content(current.workspace.slug, requestHeaders)
      )}
    </AppShell>
  );
}
