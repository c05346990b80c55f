import type { Metadata } from 'next';
import Link from 'next/link';
import { settingsCaller } from '@/server/settings/router';
import { SettingsPage } from '../settings-page';
import { ApiKeysManager } from './api-keys-manager';

export const metadata: Metadata = { title: 'API keys · Task API' };
export const dynamic = 'force-dynamic';

export default function ApiKeysPage({ searchParams }: { searchParams: Promise<{ workspace?: string | string[] }> }) {
  return (
    <SettingsPage
      path="/settings/api-keys"
      title="API keys"
      description={
        <>
          Keys let scripts, agents and services use the <Link href="/docs">public API</Link> of a workspace. Send one as{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>.
        </>
      }
      searchParams={searchParams}
      refusal={(name) =>
        `You are a member of ${name}, but only its owners and admins can create and revoke API keys. Ask one of them for a key or for the admin role.`
      }
      content={(slug, requestHeaders) => <KeyManagement slug={slug} requestHeaders={requestHeaders} />}
    />
  );
}

/** The first render's data comes through the same router the page's own calls use. */
async function KeyManagement({ slug, requestHeaders }: { slug: string; requestHeaders: Headers }) {
  const caller = settingsCaller({ headers: requestHeaders });
  const [keys, projects, lastDay] = await Promise.all([
    caller.keys.list({ workspace: slug }),
    caller.projects.list({ workspace: slug }),
    caller.usage.lastDay({ workspace: slug }),
  ]);
  return <ApiKeysManager workspace={slug} projects={projects} initialKeys={keys} lastDay={lastDay} />;
}
