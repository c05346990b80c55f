import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { settingsCaller } from '@/server/settings/router';
import { sessionUser } from '@/server/auth/session';
import { canManageKeys, userWorkspaces } from '@/server/auth/workspace-access';
import { db } from '@/server/db/client';
import { EVENT_TYPES } from '@/server/webhooks/events';
import { chosenWorkspace, SettingsTopbar, WorkspacePicker } from '../workspace-choice';
import styles from '../settings.module.css';
import { WebhooksManager } from './webhooks-manager';

export const metadata: Metadata = { title: 'Webhooks · Task API' };
export const dynamic = 'force-dynamic';

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<{ workspace?: string | string[] }> }) {
  const requestHeaders = await headers();
  const user = await sessionUser(requestHeaders);
  if (!user) redirect('/sign-in');
  const workspaces = await userWorkspaces(db(), user.id);
  const { current, askedSlug } = chosenWorkspace(workspaces, (await searchParams).workspace);
  return (
    <>
      <SettingsTopbar path="/settings/webhooks" email={user.email} workspaces={workspaces} current={current} />
      <main>
        <h1>Webhooks{current && <span className={styles.muted}> · {current.workspace.name}</span>}</h1>
        {workspaces.length === 0 ? (
          <p role="status">You are not a member of any workspace yet. Ask a workspace owner to add you.</p>
        ) : !current ? (
          <WorkspacePicker path="/settings/webhooks" workspaces={workspaces} asked={askedSlug} />
        ) : !canManageKeys(current.role) ? (
          <p role="status" className={styles.notice}>
            You are a member of {current.workspace.name}, but only its owners and admins can manage its webhooks.
          </p>
        ) : (
          <Endpoints slug={current.workspace.slug} requestHeaders={requestHeaders} />
        )}
      </main>
    </>
  );
}

async function Endpoints({ slug, requestHeaders }: { slug: string; requestHeaders: Headers }) {
  const caller = settingsCaller({ headers: requestHeaders });
  const [endpoints, projects] = await Promise.all([caller.webhooks.list({ workspace: slug }), caller.projects.list({ workspace: slug })]);
  return <WebhooksManager workspace={slug} projects={projects} eventTypes={EVENT_TYPES} initialEndpoints={endpoints} />;
}
