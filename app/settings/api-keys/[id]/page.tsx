import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { AuditTrailSection } from '../../activity/audit-trail-section';
import { BackLink, orNotFound, type DetailPageProps } from '../../activity/detail-page';
import { LastUse } from '../../activity/last-use';
import { RecentRequests } from '../../activity/recent-requests';
import { SettingsPage } from '../../settings-page';
import { KeySummary } from './key-summary';

export const metadata: Metadata = { title: 'API key · Task API' };
export const dynamic = 'force-dynamic';

export default async function ApiKeyPage({ params, searchParams }: DetailPageProps) {
  const { id } = await params;
  return (
    <SettingsPage
      path="/settings/api-keys"
      title="API key"
      description="What this key may do, when and from where it was last used, and its recent requests."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see its API keys and their requests.`}
      content={(slug, requestHeaders) => <KeyActivity slug={slug} id={id} requestHeaders={requestHeaders} />}
    />
  );
}

async function KeyActivity({ slug, id, requestHeaders }: { slug: string; id: string; requestHeaders: Headers }) {
  const { key, requests } = await orNotFound(settingsCaller({ headers: requestHeaders }).keys.get({ workspace: slug, id }));
  return (
    <>
      <BackLink href={`/settings/api-keys?workspace=${encodeURIComponent(slug)}`}>All API keys</BackLink>
      <KeySummary apiKey={key} />
      <LastUse last={requests[0]} whose="with this key" />
      <RecentRequests requests={requests} whose="with this key" />
      <AuditTrailSection what="key" />
    </>
  );
}
