import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { AuditTrailSection } from '../../activity/audit-trail-section';
import { BackLink, orNotFound, type DetailPageProps } from '../../activity/detail-page';
import { LastUse } from '../../activity/last-use';
import { RecentRequests } from '../../activity/recent-requests';
import { SettingsPage } from '../../settings-page';
import { AppSummary } from './app-summary';

export const metadata: Metadata = { title: 'Connected app · Task API' };
export const dynamic = 'force-dynamic';

export default async function ConnectedAppPage({ params, searchParams }: DetailPageProps) {
  const { id } = await params;
  return (
    <SettingsPage
      path="/settings/apps"
      title="Connected app"
      description="What this app may do, who approved it, when and from where it was last used, and its recent requests."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see its connected apps and their requests.`}
      content={(slug, requestHeaders) => <AppActivity slug={slug} id={id} requestHeaders={requestHeaders} />}
    />
  );
}

async function AppActivity({ slug, id, requestHeaders }: { slug: string; id: string; requestHeaders: Headers }) {
  const { app, requests } = await orNotFound(settingsCaller({ headers: requestHeaders }).apps.get({ workspace: slug, id }));
  return (
    <>
      <BackLink href={`/settings/apps?workspace=${encodeURIComponent(slug)}`}>All connected apps</BackLink>
      <AppSummary app={app} />
      <LastUse last={requests[0]} whose="by this app" />
      <RecentRequests requests={requests} whose="by this app" />
      <AuditTrailSection what="app" />
    </>
  );
}
