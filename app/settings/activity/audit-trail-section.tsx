import Link from 'next/link';
import type { AuditEvent } from '@/server/schemas/audit';
import { Section } from '../../ui/app-shell';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import styles from './activity.module.css';

const who = (actor: AuditEvent['actor']) => actor.name ?? actor.id ?? actor.type.replaceAll('_', ' ');

/**
 * A key's or app's newest audit events (created, revoked, presented after revocation,
 * connected), each leading to its detail on the Audit log page.
 */
export function AuditTrailSection({ what, events, workspace }: { what: 'key' | 'app'; events: AuditEvent[]; workspace: string }) {
  const detail = (id: string) => `/settings/audit-log?workspace=${encodeURIComponent(workspace)}&event=${encodeURIComponent(id)}`;
  return (
    <Section id="audit-heading" title="Audit trail" description={`Who changed this ${what}, and when, newest first.`}>
      <DataTable
        caption={`Audit events of this ${what}`}
        columns={['Time', 'Action', 'By', 'Address']}
        items={events}
        empty={<EmptyState title="No audit events recorded yet">Changes to this {what} are listed here as they are recorded.</EmptyState>}
        row={(event) => (
          <tr key={event.id} data-audit-event={event.action}>
            <th scope="row">
              <RelativeTime iso={event.occurredAt} />
            </th>
            <td data-label="Action">
              <Link href={detail(event.id)} prefetch={false}>
                <code className={styles.requestId}>{event.action}</code>
              </Link>
            </td>
            <td data-label="By">{who(event.actor)}</td>
            <td data-label="Address">{event.ip ?? '—'}</td>
            <td />
          </tr>
        )}
      />
    </Section>
  );
}
