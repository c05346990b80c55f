import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { db } from '@/server/db/client';
import { setupNeeded } from '@/server/setup/first-owner';
import styles from '../settings/settings.module.css';
import { appAddress, scriptlessPostProblem } from '../sign-in/scriptless-post';
import { SetupForm } from './setup-form';

export const metadata: Metadata = { title: 'Set up · Task API' };
export const dynamic = 'force-dynamic';

/** First run only: once anyone can sign in, this page no longer exists. */
export default async function SetupPage() {
  if (!(await setupNeeded(db()))) notFound();
  return (
    <main className={styles.narrow}>
      <h1>Set up Task API</h1>
      <p className={styles.muted}>Create the first workspace and its owner. You will sign in with this email and password.</p>
      <SetupForm address={appAddress()} initialProblem={await scriptlessPostProblem('/setup')} />
    </main>
  );
}
