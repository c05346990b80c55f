import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { settingsCaller } from '@/server/settings/router';
import { sessionUser } from '@/server/auth/session';
import { canManageKeys, userWorkspaces } from '@/server/auth/workspace-access';
import { db } from '@/server/db/client';
import { chosenWorkspace, SettingsTopbar, WorkspacePicker } from '../workspace-choice';
import styles from '../settings.module.css';
import { ApiKeysManager } from './api-keys-manager';

export const metadata: Metadata = { title: 'API keys · Task API' };
export const dynamic = 'force-dynamic';

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<{ workspace?: string | string[] }> }) {
  const requestHeaders = await headers();
  const user = await sessionUser(requestHeaders);
  if (!user) redirect('/sign-in');
  const workspaces = await userWorkspaces(db(), user.id);
  const { current, askedSlug } = chosenWorkspace(workspaces, (await searchParams).workspace);

  return (
    <>
      <SettingsTopbar path="/settings/api-keys" email={user.email} workspaces={workspaces} current={current} />
      <main>
        <h1>API keys{current && <span className={styles.muted}> · {current.workspace.name}</span>}</h1>
        {workspaces.length === 0 ? (
          <p role="status">You are not a member of any workspace yet. Ask a workspace owner to add you.</p>
        ) : !current ? (
          <WorkspacePicker path="/settings/api-keys" workspaces={workspaces} asked={askedSlug} />
        ) : !canManageKeys(current.role) ? (
          <p role="status" className={styles.notice}>
            You are a member of {current.workspace.name}, but only its owners and admins can create and revoke API keys. Ask one of them for
            a key or for the admin role.
          </p>
        ) : (
          <KeyManagement slug={current.workspace.slug} requestHeaders={requestHeaders} />
        )}
      </main>
    </>
  );
}

/** The first render's data comes through the same router the page's own calls use. */
async function KeyManagement({ slug, requestHeaders }: { slug: string; requestHeaders: Headers }) {
  const caller = settingsCaller({ headers: requestHeaders });
  const [keys, projects] = await Promise.all([caller.keys.list({ workspace: slug }), caller.projects.list({ workspace: slug })]);
  return (
    <>
      <p className={styles.muted}>
        Keys let scripts and services use the <Link href="/docs">public API</Link> of this workspace. Send one as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <ApiKeysManager workspace={slug} projects={projects} initialKeys={keys} />
    </>
  );
}
