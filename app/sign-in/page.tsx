import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser } from '@/server/auth/session';
import { db } from '@/server/db/client';
import { setupNeeded } from '@/server/setup/first-owner';
import { AppShell, PageHeader, Panel } from '../ui/app-shell';
import { appAddress, scriptlessPostProblem } from './scriptless-post';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in · Task API' };
export const dynamic = 'force-dynamic';

export default async function SignInPage() {
  if (await setupNeeded(db())) redirect('/setup');
  if (await sessionUser(await headers())) redirect('/settings/api-keys');
  return (
    <AppShell width="narrow">
      <PageHeader title="Sign in" description="Workspace owners and admins sign in here to manage API keys and webhooks." />
      <Panel>
        <SignInForm address={appAddress()} initialProblem={await scriptlessPostProblem('/sign-in')} />
      </Panel>
    </AppShell>
  );
}
