import Link from 'next/link';
import type { ErrorGroup } from '@/server/request-log/errors';
import { DataTable } from '../../ui/data-table';
import { Badge, EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';

/** The range's errors grouped by operation, status and message, the most frequent first; each group opens its requests. */
export function ErrorGroups({ groups, requestsHref }: { groups: ErrorGroup[]; requestsHref: (group: ErrorGroup) => string }) {
  return (
    <DataTable
      caption="Errors grouped by route, status and message"
      columns={['Route', 'Status', 'Message', 'Requests', 'Last seen']}
      items={groups}
      empty={<EmptyState title="No errors in this range">No request of these keys and apps was answered with a 4xx or 5xx.</EmptyState>}
      row={(group) => (
        <tr key={`${group.method} ${group.route} ${group.status} ${group.message}`}>
          <th scope="row" data-label="Route">
            {group.method} <code>{group.route}</code>
          </th>
          <td data-label="Status">
            <Badge tone="danger">{group.status}</Badge>
          </td>
          <td data-label="Message">{group.message ?? '—'}</td>
          <td data-label="Requests">{group.count.toLocaleString('en-US')}</td>
          <td data-label="Last seen">
            <RelativeTime iso={group.lastSeen} />
          </td>
          <td>
            <Link href={requestsHref(group)} aria-label={`Requests of ${group.method} ${group.route} answered ${group.status}`}>
              Requests
            </Link>
          </td>
        </tr>
      )}
    />
  );
}
