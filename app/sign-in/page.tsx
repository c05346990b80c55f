import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser } from '@/server/auth/session';
import { db } from '@/server/db/client';
import { setupNeeded } from '@/server/setup/first-owner';
import { AppShell, PageHeader, Panel } from '../ui/app-shell';
import { appAddress, scriptlessPostProblem } from './scriptless-post';
import { authorizationToContinue, queryOf } from '@/server/oauth/continue';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in · Task API' };
export const dynamic = 'force-dynamic';

type SearchParams = Record<string, string | string[] | undefined>;

export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  if (await setupNeeded(db())) redirect('/setup');
  const query = queryOf(await searchParams);
  // An app's authorization waiting for this sign-in goes on to its consent page afterwards.
  const next = authorizationToContinue(query) ?? '/settings/api-keys';
  if (await sessionUser(await headers())) redirect(next);
  return (
    <AppShell width="narrow">
      <PageHeader title="Sign in" description="Workspace owners and admins sign in here to manage API keys and webhooks." />
      <Panel>
        <SignInForm next={next} address={appAddress()} initialProblem={await scriptlessPostProblem('/sign-in')} />
      </Panel>
    </AppShell>
  );
}
