import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { SettingsPage } from '../settings-page';
import { AppsManager } from './apps-manager';

export const metadata: Metadata = { title: 'Connected apps · Task API' };
export const dynamic = 'force-dynamic';

export default function ConnectedAppsPage({ searchParams }: { searchParams: Promise<{ workspace?: string | string[] }> }) {
  return (
    <SettingsPage
      path="/settings/apps"
      title="Connected apps"
      description="Apps and agents people approved to use this workspace through OAuth. Revoking one stops its next request."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see and revoke its connected apps.`}
      content={(slug, requestHeaders) => <Apps slug={slug} requestHeaders={requestHeaders} />}
    />
  );
}

async function Apps({ slug, requestHeaders }: { slug: string; requestHeaders: Headers }) {
  const caller = settingsCaller({ headers: requestHeaders });
  const [apps, lastDay] = await Promise.all([caller.apps.list({ workspace: slug }), caller.usage.lastDay({ workspace: slug })]);
  return <AppsManager workspace={slug} initialApps={apps} lastDay={lastDay} />;
}
