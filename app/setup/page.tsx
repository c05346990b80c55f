import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { announceSetupCode } from '@/server/setup/setup-code';
import { AppShell, PageHeader, Panel } from '../ui/app-shell';
import { appAddress, scriptlessPostProblem } from '../sign-in/scriptless-post';
import { SetupForm } from './setup-form';

export const metadata: Metadata = { title: 'Set up · Task API' };
export const dynamic = 'force-dynamic';

/**
 * First run only: once anyone can sign in, this page no longer exists. Opening it writes
 * the setup code to the server's log (never to the page), for whoever can read that log.
 */
export default async function SetupPage() {
  if (!(await announceSetupCode(db(), env().appUrl))) notFound();
  return (
    <AppShell width="narrow">
      <PageHeader
        title="Set up Task API"
        description="Create the first workspace and its owner. You will sign in with this email and password."
      />
      <Panel>
        <SetupForm address={appAddress()} codeFromEnv={env().setupToken !== null} initialProblem={await scriptlessPostProblem('/setup')} />
      </Panel>
    </AppShell>
  );
}
