import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { orNotFound, type DetailPageProps } from '../../activity/detail-page';
import { PrincipalActivity } from '../../activity/principal-activity';
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
      description="What this key may do, when and from where it was last used, its recent requests and who changed it."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see its API keys and their requests.`}
      content={(slug, requestHeaders) => <KeyActivity slug={slug} id={id} requestHeaders={requestHeaders} />}
    />
  );
}

async function KeyActivity({ slug, id, requestHeaders }: { slug: string; id: string; requestHeaders: Headers }) {
  const { key, requests, audit } = await orNotFound(settingsCaller({ headers: requestHeaders }).keys.get({ workspace: slug, id }));
  return (
    <PrincipalActivity
      what="key"
      back={{ href: `/settings/api-keys?workspace=${encodeURIComponent(slug)}`, label: 'All API keys' }}
      summary={<KeySummary apiKey={key} />}
      requests={requests}
      audit={audit}
      workspace={slug}
    />
  );
}
