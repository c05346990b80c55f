import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { EVENT_TYPES } from '@/server/webhooks/events';
import { SettingsPage } from '../settings-page';
import { WebhooksManager } from './webhooks-manager';

export const metadata: Metadata = { title: 'Webhooks · Task API' };
export const dynamic = 'force-dynamic';

export default function WebhooksPage({ searchParams }: { searchParams: Promise<{ workspace?: string | string[] }> }) {
  return (
    <SettingsPage
      path="/settings/webhooks"
      title="Webhooks"
      description="Webhooks tell your services when tasks, comments and attachments change: a signed POST to each endpoint, retried while it fails."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can manage its webhooks.`}
      content={(slug, requestHeaders) => <Endpoints slug={slug} requestHeaders={requestHeaders} />}
    />
  );
}

async function Endpoints({ slug, requestHeaders }: { slug: string; requestHeaders: Headers }) {
  const caller = settingsCaller({ headers: requestHeaders });
  const [endpoints, projects] = await Promise.all([caller.webhooks.list({ workspace: slug }), caller.projects.list({ workspace: slug })]);
  return <WebhooksManager workspace={slug} projects={projects} eventTypes={EVENT_TYPES} initialEndpoints={endpoints} />;
}
