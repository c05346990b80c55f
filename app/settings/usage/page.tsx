import type { Metadata } from 'next';
import { RequestLogOff, requestLogDays } from '../request-log-off';
import { SettingsPage } from '../settings-page';
import { UsageReport, type UsageSearchParams } from './usage-report';

export const metadata: Metadata = { title: 'Usage · Task API' };
export const dynamic = 'force-dynamic';

export default function UsagePage({ searchParams }: { searchParams: Promise<UsageSearchParams> }) {
  return (
    <SettingsPage
      path="/settings/usage"
      title="Usage"
      description="Requests of this workspace's API keys and connected apps over time: how many, how many failed and how long they took, and who and what made the most."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see its usage.`}
      content={(slug, requestHeaders) => (
        <>
          {requestLogDays() === 0 && <RequestLogOff />}
          <UsageReport slug={slug} searchParams={searchParams} requestHeaders={requestHeaders} />
        </>
      )}
    />
  );
}
