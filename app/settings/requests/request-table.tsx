import Link from 'next/link';
import type { settingsCaller } from '@/server/settings/router';
import { DataTable } from '../../ui/data-table';
import { Badge, EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';

export type LoggedRequest = Awaited<ReturnType<ReturnType<typeof settingsCaller>['requests']['list']>>['requests'][number];

/** The requests, newest first; each opens its detail from its method and path. */
export function RequestTable({
  requests,
  filtered,
  detailHref,
}: {
  requests: LoggedRequest[];
  filtered: boolean;
  detailHref: (requestId: string) => string;
}) {
  return (
    <DataTable
      caption="Requests"
      columns={['Request', 'Status', 'Key or app', 'Time', 'Duration', 'Message']}
      items={requests}
      empty={
        <EmptyState title={filtered ? 'No requests match these filters' : 'No requests'}>
          {filtered
            ? 'Widen the time or clear a filter.'
            : "Requests made with this workspace's keys and apps appear here within a second."}
        </EmptyState>
      }
      row={(request) => (
        <tr key={`${request.requestId} ${request.route} ${request.occurredAt}`}>
          <th scope="row" data-label="Request">
            <Link href={detailHref(request.requestId)} aria-label={`Details of ${request.method} ${request.path} (${request.requestId})`}>
              {request.method} <code>{request.path === '/v1/mcp' ? request.route : request.path}</code>
            </Link>
            <br />
            <small>
              <code>{request.requestId}</code>
            </small>
          </th>
          <td data-label="Status">
            <Badge tone={request.status >= 400 ? 'danger' : 'ok'}>{request.status}</Badge>
            {request.replayed && <> replayed</>}
          </td>
          <td data-label="Key or app">{request.by}</td>
          <td data-label="Time">
            <RelativeTime iso={request.occurredAt} />
          </td>
          <td data-label="Duration">{request.durationMs} ms</td>
          <td data-label="Message">{request.message ?? '—'}</td>
          <td />
        </tr>
      )}
    />
  );
}
