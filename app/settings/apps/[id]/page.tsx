import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { orNotFound, type DetailPageProps } from '../../activity/detail-page';
import { PrincipalActivity } from '../../activity/principal-activity';
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
  const { app, requests, audit } = await orNotFound(settingsCaller({ headers: requestHeaders }).apps.get({ workspace: slug, id }));
  return (
    <PrincipalActivity
      what="app"
      back={{ href: `/settings/apps?workspace=${encodeURIComponent(slug)}`, label: 'All connected apps' }}
      summary={<AppSummary app={app} />}
      requests={requests}
      audit={audit}
      workspace={slug}
    />
  );
}
