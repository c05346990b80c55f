'use client';

import type { DeliveryView } from '@/server/settings/webhooks';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { Badge, EmptyState, type Tone } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';

const STATUS_TONE: Record<DeliveryView['status'], Tone> = { pending: 'muted', delivered: 'ok', failed: 'danger', held: 'warn' };

export function DeliveriesTable({ deliveries, onResend }: { deliveries: DeliveryView[]; onResend: (delivery: DeliveryView) => void }) {
  return (
    <DataTable
      caption="Last 50 deliveries"
      columns={['Event', 'Status', 'Response', 'Duration', 'Attempts', 'Sent']}
      items={deliveries}
      empty={<EmptyState title="No deliveries yet">Each event this endpoint receives is listed here within seconds.</EmptyState>}
      row={(delivery) => (
        <tr key={delivery.id}>
          <th scope="row">{delivery.eventType}</th>
          <td data-label="Status">
            <Badge tone={STATUS_TONE[delivery.status]}>{delivery.status}</Badge>
          </td>
          <td data-label="Response">{delivery.responseCode ?? delivery.lastError ?? '—'}</td>
          <td data-label="Duration">{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</td>
          <td data-label="Attempts">{delivery.attempts}</td>
          <td data-label="Sent">
            <RelativeTime iso={delivery.createdAt} />
          </td>
          <td>
            {delivery.status !== 'pending' && (
              <Button onClick={() => onResend(delivery)} aria-label={`Resend ${delivery.eventType}`}>
                Resend
              </Button>
            )}
          </td>
        </tr>
      )}
    />
  );
}
