import type { Metadata } from 'next';
import { settingsCaller } from '@/server/settings/router';
import { SettingsPage } from '../settings-page';
import { AuditLog } from './audit-log';
import { auditSearch, type AuditSearchParams } from './search';

export const metadata: Metadata = { title: 'Audit log · Task API' };
export const dynamic = 'force-dynamic';

export default function AuditLogPage({ searchParams }: { searchParams: Promise<AuditSearchParams> }) {
  return (
    <SettingsPage
      path="/settings/audit-log"
      title="Audit log"
      description="Who issued and revoked keys, connected and revoked apps, changed webhooks and members, and who signed in. Kept 400 days."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can read its audit log.`}
      content={(slug, requestHeaders) => <Events slug={slug} requestHeaders={requestHeaders} searchParams={searchParams} />}
    />
  );
}

async function Events({
  slug,
  requestHeaders,
  searchParams,
}: {
  slug: string;
  requestHeaders: Headers;
  searchParams: Promise<AuditSearchParams>;
}) {
  const search = auditSearch(await searchParams);
  const caller = settingsCaller({ headers: requestHeaders }).audit;
  const [page, detail] = await Promise.all([
    caller.list({ workspace: slug, ...search.query }),
    search.event ? caller.get({ workspace: slug, id: search.event }).catch(() => null) : null,
  ]);
  return (
    <AuditLog
      workspace={slug}
      search={search}
      events={page.events}
      nextCursor={page.meta.hasMore ? page.meta.nextCursor : null}
      detail={detail}
    />
  );
}
