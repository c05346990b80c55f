'use client';

import type { ReactNode } from 'react';
import type { DeliveryView, EndpointView } from '@/server/settings/webhooks';
import { Button } from '../../ui/button';
import { Badge, Callout } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import { DeliveriesTable } from './deliveries-table';
import styles from './endpoint-card.module.css';

/** One endpoint: where it points, what it receives, its state, its actions and, when opened, its deliveries. */
export function EndpointCard({
  endpoint,
  projectName,
  deliveries,
  editor,
  onEdit,
  onRotate,
  onToggle,
  onShowDeliveries,
  onDelete,
  onResend,
}: {
  endpoint: EndpointView;
  projectName: string;
  /** Null until the deliveries are asked for. */
  deliveries: DeliveryView[] | null;
  /** The form changing it, while it is open. */
  editor: ReactNode;
  onEdit: () => void;
  onRotate: () => void;
  onToggle: () => void;
  onShowDeliveries: () => void;
  onDelete: () => void;
  onResend: (delivery: DeliveryView) => void;
}) {
  return (
    <article aria-label={endpoint.url} className={styles.card}>
      <div className={styles.head}>
        <h3 className={styles.url}>
          <code>{endpoint.url}</code>
        </h3>
        {endpoint.disabledAt ? <Badge tone="warn">Disabled</Badge> : <Badge tone="ok">Active</Badge>}
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>Events</dt>
          <dd>{endpoint.events.length ? endpoint.events.join(', ') : 'Every project event'}</dd>
        </div>
        <div>
          <dt>Project</dt>
          <dd>{projectName}</dd>
        </div>
        <div>
          <dt>Previews</dt>
          <dd>{endpoint.deliverOnPreviews ? 'Delivered from previews too' : 'Held by previews, unless added on one'}</dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>
            <RelativeTime iso={endpoint.createdAt} />
            {endpoint.createdBy && (
              <>
                {' '}
                by {endpoint.createdBy.kind === 'app' ? 'the app' : 'the API key'} {endpoint.createdBy.name}
                {endpoint.createdBy.revoked && ' (since revoked)'}
              </>
            )}
          </dd>
        </div>
      </dl>
      {endpoint.disabledAt && (
        <Callout tone="warn">
          <p>Disabled: {endpoint.disabledReason}</p>
        </Callout>
      )}
      {endpoint.heldHere && (
        <Callout tone="info">
          <p>{endpoint.heldHere}</p>
        </Callout>
      )}
      {endpoint.previousSecretExpiresAt && (
        <p className={styles.note}>
          The previous secret also signs deliveries; it stops <RelativeTime iso={endpoint.previousSecretExpiresAt} />.
        </p>
      )}
      <div className={styles.actions}>
        <Button onClick={onShowDeliveries}>Show deliveries</Button>
        <Button onClick={onEdit}>Edit</Button>
        <Button onClick={onRotate}>Rotate secret</Button>
        <Button onClick={onToggle}>{endpoint.disabledAt ? 'Enable' : 'Disable'}</Button>
        <Button variant="danger" onClick={onDelete}>
          Delete
        </Button>
      </div>
      {editor}
      {deliveries && (
        <div className={styles.deliveries}>
          <h4>Last 50 deliveries</h4>
          <DeliveriesTable deliveries={deliveries} onResend={onResend} />
        </div>
      )}
    </article>
  );
}
