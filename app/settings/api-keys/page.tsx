import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { settingsCaller } from '@/server/settings/router';
import { sessionUser } from '@/server/auth/session';
import { canManageKeys, userWorkspaces, type WorkspaceAccess } from '@/server/auth/workspace-access';
import { db } from '@/server/db/client';
import { SignOutButton } from '../sign-out-button';
import styles from '../settings.module.css';
import { ApiKeysManager } from './api-keys-manager';

export const metadata: Metadata = { title: 'API keys · Task API' };
export const dynamic = 'force-dynamic';

const pageUrl = (slug: string) => `/settings/api-keys?workspace=${encodeURIComponent(slug)}`;

function WorkspacePicker({ workspaces, asked }: { workspaces: WorkspaceAccess[]; asked: string | undefined }) {
  return (
    <section aria-labelledby="picker-heading">
      <h2 id="picker-heading">Choose a workspace</h2>
      {asked && <p role="alert">You are not a member of a workspace called “{asked}”.</p>}
      <ul className={styles.picker}>
        {workspaces.map(({ workspace, role }) => (
          <li key={workspace.id}>
            <Link href={pageUrl(workspace.slug)}>{workspace.name}</Link> <span className={styles.muted}>({role})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<{ workspace?: string | string[] }> }) {
  const requestHeaders = await headers();
  const user = await sessionUser(requestHeaders);
  if (!user) redirect('/sign-in');
  const workspaces = await userWorkspaces(db(), user.id);
  const asked = (await searchParams).workspace;
  const askedSlug = typeof asked === 'string' ? asked : undefined;
  const current = askedSlug
    ? workspaces.find(({ workspace }) => workspace.slug === askedSlug)
    : workspaces.length === 1
      ? workspaces[0]
      : undefined;

  return (
    <>
      <header className={styles.topbar}>
        <strong>Task API</strong>
        <span className={styles.muted}>
          {user.email}
          {workspaces.length > 1 && current && (
            <>
              {' · '}
              <Link href="/settings/api-keys">Switch workspace</Link>
            </>
          )}
          {' · '}
          <SignOutButton />
        </span>
      </header>
      <main>
        <h1>API keys{current && <span className={styles.muted}> · {current.workspace.name}</span>}</h1>
        {workspaces.length === 0 ? (
          <p role="status">You are not a member of any workspace yet. Ask a workspace owner to add you.</p>
        ) : !current ? (
          <WorkspacePicker workspaces={workspaces} asked={askedSlug} />
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
