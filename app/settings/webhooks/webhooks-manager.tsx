'use client';

import { useState } from 'react';
import type { DeliveryView, EndpointView } from '@/server/settings/webhooks';
import type { EventType } from '@/server/webhooks/events';
import { Section } from '../../ui/app-shell';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EmptyState, StatusLine } from '../../ui/feedback';
import { SecretReveal } from '../../ui/secret-reveal';
import { formProblem, internalApi } from '../internal-api';
import { AddEndpointForm, type CreatedEndpoint } from './add-endpoint-form';
import { EditEndpointForm } from './edit-endpoint-form';
import { EndpointCard } from './endpoint-card';
import type { Project } from './endpoint-fields';

/** Add, reveal a secret once, change, rotate, disable/enable, delete, and each endpoint's last deliveries. */
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
  const [editing, setEditing] = useState<string | null>(null);

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

  function saved(endpoint: EndpointView) {
    setEditing(null);
    setEndpoints((current) => current.map((each) => (each.id === endpoint.id ? endpoint : each)));
    setNotice('Endpoint changed.');
  }

  function added(created: CreatedEndpoint) {
    setSecret({ url: created.endpoint.url, secret: created.secret });
    setEndpoints((current) => [created.endpoint, ...current]);
    setNotice('Endpoint added.');
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
      <StatusLine>{notice}</StatusLine>
      {secret && (
        <SecretReveal
          id="secret-heading"
          title={`Signing secret of ${secret.url}`}
          label="Signing secret"
          copyLabel="Copy secret"
          secret={secret.secret}
          onDone={() => setSecret(null)}
        />
      )}
      <Section id="endpoints-heading" title="Endpoints" description="Where this workspace's events are sent, newest first.">
        {endpoints.length === 0 ? (
          <EmptyState title="No endpoints yet">
            Add one below to have your service told when tasks, comments and attachments change.
          </EmptyState>
        ) : (
          <div>
            {endpoints.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                projectName={projects.find((project) => project.id === endpoint.projectId)?.name ?? 'All projects'}
                deliveries={open?.id === endpoint.id ? open.deliveries : null}
                editor={
                  editing === endpoint.id && (
                    <EditEndpointForm
                      workspace={workspace}
                      endpoint={endpoint}
                      projects={projects}
                      eventTypes={eventTypes}
                      onSaved={saved}
                      onCancel={() => setEditing(null)}
                    />
                  )
                }
                onEdit={() => setEditing(endpoint.id)}
                onShowDeliveries={() => showDeliveries(endpoint.id)}
                onRotate={() => {
                  setExpirePrevious(false);
                  setConfirming({ action: 'rotate', endpoint });
                }}
                onToggle={() =>
                  act(endpoint.disabledAt ? 'Endpoint enabled.' : 'Endpoint disabled.', () =>
                    internalApi.webhooks.setEnabled.mutate({ workspace, id: endpoint.id, enabled: Boolean(endpoint.disabledAt) }),
                  )
                }
                onDelete={() => setConfirming({ action: 'delete', endpoint })}
                onResend={(delivery) =>
                  act('Delivery queued again.', async () => {
                    await internalApi.webhooks.resend.mutate({ workspace, id: endpoint.id, deliveryId: delivery.id });
                    await showDeliveries(endpoint.id);
                  })
                }
              />
            ))}
          </div>
        )}
      </Section>
      <Section id="add-heading" title="Add an endpoint" description="Its signing secret is shown once, right after it is added.">
        <AddEndpointForm workspace={workspace} projects={projects} eventTypes={eventTypes} onAdded={added} />
      </Section>
    </>
  );
}
