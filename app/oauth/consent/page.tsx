import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser } from '@/server/auth/session';
import { canManageKeys, userWorkspaces } from '@/server/auth/workspace-access';
import { db } from '@/server/db/client';
import { AUTHORIZATION_INVALID, pendingAuthorization } from '@/server/oauth/consent';
import { queryOf } from '@/server/oauth/continue';
import { AppShell, PageHeader, Panel } from '../../ui/app-shell';
import { Callout } from '../../ui/feedback';
import { ConsentForm } from './consent-form';

export const metadata: Metadata = { title: 'Connect an app · Task API' };
export const dynamic = 'force-dynamic';

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * Where the authorization endpoint sends a person to approve an app: its name and where
 * it sends them back, a workspace (owners and admins only), optionally one project, and
 * the scopes it asked for. A request that is not valid gets this page's own error, never a
 * redirect: the redirect URI is trusted only once the library has checked it.
 */
export default async function ConsentPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = queryOf(await searchParams);
  const requestHeaders = await headers();
  const user = await sessionUser(requestHeaders);
  if (!user) redirect(`/sign-in?${query}`);
  const pending = await pendingAuthorization(db(), query);
  if (!pending) {
    return (
      <AppShell width="narrow">
        <PageHeader title="Connect an app" />
        <Callout tone="danger" role="alert">
          {AUTHORIZATION_INVALID}.
        </Callout>
      </AppShell>
    );
  }
  const workspaces = (await userWorkspaces(db(), user.id)).filter(({ role }) => canManageKeys(role));
  const projects = await db().project.findMany({
    where: { workspaceId: { in: workspaces.map(({ workspace }) => workspace.id) } },
    select: { id: true, name: true, workspaceId: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return (
    <AppShell width="narrow">
      <PageHeader
        title={`Connect ${pending.appName}`}
        description={
          <>
            <strong>{pending.appName}</strong> wants to use Task API as you ({user.email}). When you approve, it is sent back to{' '}
            <strong>{pending.redirectHost}</strong>.
          </>
        }
      />
      {workspaces.length === 0 ? (
        <Callout tone="warn" role="status">
          Only owners and admins of a workspace connect apps to it. Ask one of them to connect {pending.appName}.
        </Callout>
      ) : null}
      <Panel>
        <ConsentForm
          oauthQuery={query.toString()}
          workspaces={workspaces.map(({ workspace }) => ({ slug: workspace.slug, name: workspace.name, id: workspace.id }))}
          projects={projects}
          scopes={pending.scopes}
        />
      </Panel>
    </AppShell>
  );
}
