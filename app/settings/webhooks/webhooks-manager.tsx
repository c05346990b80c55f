'use client';

import { useState, type FormEvent } from 'react';
import type { DeliveryView, EndpointView } from '@/server/settings/webhooks';
import type { EventType } from '@/server/webhooks/events';
import { ConfirmDialog } from '../confirm-dialog';
import { formProblem, internalApi } from '../internal-api';
import { DataTable } from '../data-table';
import { formatDate } from '../format-date';
import styles from '../settings.module.css';

interface Project {
  id: string;
  name: string;
}

/** Add, reveal a secret once, rotate, disable/enable, delete, and each endpoint's last deliveries. */
export function WebhooksManager({
  workspace,
  projects,
  eventTypes,
  initialEndpoints,
}: {
  workspace: string;
  projects: Project[];
  eventTypes: readonly EventType[];
  initialEndpoints: EndpointView[];
}) {
  const [endpoints, setEndpoints] = useState(initialEndpoints);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [notice, setNotice] = useState('');
  const [open, setOpen] = useState<{ id: string; deliveries: DeliveryView[] } | null>(null);
  const [confirming, setConfirming] = useState<{ action: 'rotate' | 'delete'; endpoint: EndpointView } | null>(null);
  const [expirePrevious, setExpirePrevious] = useState(false);

  async function act(label: string, run: () => Promise<unknown>) {
    try {
      await run();
      setEndpoints(await internalApi.webhooks.list.query({ workspace }));
      setNotice(label);
    } catch (error) {
      setNotice(formProblem(error).message);
    }
  }

  async function showDeliveries(id: string) {
    setOpen({ id, deliveries: await internalApi.webhooks.deliveries.query({ workspace, id }) });
  }

  function rotate(endpoint: EndpointView) {
    setConfirming(null);
    void act('Secret rotated.', async () => {
      const rotated = await internalApi.webhooks.rotate.mutate({ workspace, id: endpoint.id, expirePrevious });
      setSecret({ url: endpoint.url, secret: rotated.secret });
    });
  }

  function remove(endpoint: EndpointView) {
    setConfirming(null);
    void act('Endpoint deleted.', () => internalApi.webhooks.delete.mutate({ workspace, id: endpoint.id }));
  }

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const projectId = String(form.get('project') ?? '');
    await act('Endpoint added.', async () => {
      const created = await internalApi.webhooks.create.mutate({
        workspace,
        url: String(form.get('url') ?? ''),
        events: form.getAll('events').map(String) as EventType[],
        projectId: projectId || null,
      });
      setSecret({ url: created.endpoint.url, secret: created.secret });
    });
  }

  return (
    <>
      {confirming?.action === 'rotate' && (
        <ConfirmDialog
          title={`Rotate the secret of ${confirming.endpoint.url}?`}
          confirmLabel="Rotate secret"
          onConfirm={() => rotate(confirming.endpoint)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            Deliveries are signed with the new secret from now on, and with the old one beside it for 24 hours: the receiver verifies them
            with either while you give it the new one.
          </p>
          <label>
            <input type="checkbox" checked={expirePrevious} onChange={(event) => setExpirePrevious(event.target.checked)} /> The old secret
            leaked: stop signing with it now
          </label>
        </ConfirmDialog>
      )}
      {confirming?.action === 'delete' && (
        <ConfirmDialog
          title={`Delete ${confirming.endpoint.url}?`}
          confirmLabel="Delete endpoint"
          onConfirm={() => remove(confirming.endpoint)}
          onCancel={() => setConfirming(null)}
        >
          <p>It receives no further events, and its deliveries are deleted with it. This cannot be undone.</p>
        </ConfirmDialog>
      )}
      {secret && (
        <section className={styles.reveal} aria-labelledby="secret-heading">
          <h2 id="secret-heading">Signing secret of {secret.url}</h2>
          <p className={styles.warning}>Copy this secret now. It cannot be shown again.</p>
          <input className={styles.secret} value={secret.secret} readOnly aria-label="Signing secret" />
          <button type="button" onClick={() => setSecret(null)}>
            I have saved it
          </button>
        </section>
      )}
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <p role="status" className={styles.muted}>
          {notice}
        </p>
        {endpoints.length === 0 && <p className={styles.muted}>No endpoints yet.</p>}
        {endpoints.map((endpoint) => (
          <article key={endpoint.id} aria-label={endpoint.url}>
            <h3>
              <code>{endpoint.url}</code>
            </h3>
            <p className={styles.muted}>
              {endpoint.events.length ? endpoint.events.join(', ') : 'Every event'} ·{' '}
              {projects.find((project) => project.id === endpoint.projectId)?.name ?? 'All projects'}
            </p>
            {endpoint.disabledAt && <p className={styles.notice}>Disabled: {endpoint.disabledReason}</p>}
            {endpoint.previousSecretExpiresAt && (
              <p className={styles.muted}>
                The previous secret also signs until{' '}
                <time dateTime={endpoint.previousSecretExpiresAt}>{formatDate(endpoint.previousSecretExpiresAt)}</time>.
              </p>
            )}
            <button
              type="button"
              onClick={() => {
                setExpirePrevious(false);
                setConfirming({ action: 'rotate', endpoint });
              }}
            >
              Rotate secret
            </button>{' '}
            <button
              type="button"
              onClick={() =>
                act(endpoint.disabledAt ? 'Endpoint enabled.' : 'Endpoint disabled.', () =>
                  internalApi.webhooks.setEnabled.mutate({ workspace, id: endpoint.id, enabled: Boolean(endpoint.disabledAt) }),
                )
              }
            >
              {endpoint.disabledAt ? 'Enable' : 'Disable'}
            </button>{' '}
            <button type="button" onClick={() => showDeliveries(endpoint.id)}>
              Show deliveries
            </button>{' '}
            <button type="button" className={styles.danger} onClick={() => setConfirming({ action: 'delete', endpoint })}>
              Delete
            </button>
            {open?.id === endpoint.id && (
              <Deliveries
                deliveries={open.deliveries}
                onResend={(delivery) =>
                  act('Delivery queued again.', async () => {
                    await internalApi.webhooks.resend.mutate({ workspace, id: endpoint.id, deliveryId: delivery.id });
                    await showDeliveries(endpoint.id);
                  })
                }
              />
            )}
          </article>
        ))}
      </section>
      <form onSubmit={add} aria-labelledby="add-heading">
        <h2 id="add-heading">Add an endpoint</h2>
        <label>
          URL <input name="url" type="url" required />
        </label>
        <fieldset>
          <legend>Events (none checked: every event)</legend>
          {eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" name="events" value={type} /> {type}
            </label>
          ))}
        </fieldset>
        <label>
          Project{' '}
          <select name="project" defaultValue="">
            <option value="">All projects</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={styles.primary}>
          Add endpoint
        </button>
      </form>
    </>
  );
}

function Deliveries({ deliveries, onResend }: { deliveries: DeliveryView[]; onResend: (delivery: DeliveryView) => void }) {
  if (deliveries.length === 0) return <p className={styles.muted}>No deliveries yet.</p>;
  return (
    <DataTable caption="Last 50 deliveries" columns={['Event', 'Status', 'Response', 'Duration', 'Attempts', 'Sent']}>
      {deliveries.map((delivery) => (
        <tr key={delivery.id}>
          <th scope="row">{delivery.eventType}</th>
          <td data-label="Status">{delivery.status}</td>
          <td data-label="Response">{delivery.responseCode ?? delivery.lastError ?? '—'}</td>
          <td data-label="Duration">{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</td>
          <td data-label="Attempts">{delivery.attempts}</td>
          <td data-label="Sent">
            <time dateTime={delivery.createdAt}>{delivery.createdAt}</time>
          </td>
          <td>
            {delivery.status !== 'pending' && (
              <button type="button" onClick={() => onResend(delivery)}>
                Resend
              </button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
