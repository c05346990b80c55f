import type { ReactNode } from 'react';
import type { AuditEvent } from '@/server/schemas/audit';
import type { RecentRequest } from '@/server/settings/recent-requests';
import { AuditTrailSection } from './audit-trail-section';
import { BackLink } from './detail-page';
import { LastUse } from './last-use';
import { RecentRequests } from './recent-requests';

const WHOSE = { key: 'with this key', app: 'by this app' } as const;

/** A key's or app's page below its title: back to its list, what it is, its last use, its recent requests and its audit trail. */
export function PrincipalActivity({
  what,
  back,
  summary,
  requests,
  audit,
  workspace,
}: {
  what: 'key' | 'app';
  back: { href: string; label: string };
  summary: ReactNode;
  requests: RecentRequest[];
  audit: AuditEvent[];
  workspace: string;
}) {
  return (
    <>
      <BackLink href={back.href}>{back.label}</BackLink>
      {summary}
      <LastUse last={requests[0]} whose={WHOSE[what]} />
      <RecentRequests requests={requests} whose={WHOSE[what]} />
      <AuditTrailSection what={what} events={audit} workspace={workspace} />
    </>
  );
}
