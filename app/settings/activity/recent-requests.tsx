import type { RecentRequest } from '@/server/settings/recent-requests';
import { Section } from '../../ui/app-shell';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import { formatMs } from './format';
import { StatusBadge } from './status-badge';
import styles from './activity.module.css';

/** A key's or app's newest requests from the request log, newest first. */
export function RecentRequests({ requests, whose }: { requests: RecentRequest[]; whose: string }) {
  return (
    <Section
      id="requests-heading"
      title="Recent requests"
      description={`The newest ${requests.length === 1 ? 'request' : `${requests.length} requests`} ${whose} made, newest first; the request log keeps 30 days.`}
    >
      <DataTable
        caption={`Recent requests ${whose} made`}
        columns={['Time', 'Status', 'Method', 'Route', 'Request ID', 'Duration']}
        items={requests}
        empty={<EmptyState title="No requests in the last 30 days">Its requests are listed here once it is used.</EmptyState>}
        row={(request) => (
          <tr key={`${request.requestId} ${request.occurredAt} ${request.route}`} data-request-id={request.requestId}>
            <th scope="row">
              <RelativeTime iso={request.occurredAt} />
            </th>
            <td data-label="Status">
              <StatusBadge status={request.status} />
              {request.replayed && <span className={styles.muted}> replayed</span>}
            </td>
            <td data-label="Method">{request.method}</td>
            <td data-label="Route" className={styles.route}>
              {request.route}
              {request.message && <span className={styles.message}>{request.message}</span>}
            </td>
            <td data-label="Request ID">
              <code className={styles.requestId}>{request.requestId}</code>
            </td>
            <td data-label="Duration">{formatMs(request.durationMs)}</td>
            <td />
          </tr>
        )}
      />
    </Section>
  );
}
