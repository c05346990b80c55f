'use client';

import type { EventType } from '@/server/webhooks/events';
import { Button } from '../../ui/button';
import { Form, FormActions } from '../../ui/form';
import { FormProblemAlert, useFormSubmission } from '../form-submission';
import { internalApi } from '../internal-api';
import { endpointFields, EndpointFields, type Project } from './endpoint-fields';

export type CreatedEndpoint = Awaited<ReturnType<typeof internalApi.webhooks.create.mutate>>;

export function AddEndpointForm({
  workspace,
  projects,
  eventTypes,
  onAdded,
}: {
  workspace: string;
  projects: Project[];
  eventTypes: readonly EventType[];
  onAdded: (created: CreatedEndpoint) => void;
}) {
  const { problem, busy, onSubmit, error } = useFormSubmission(
    (form) => internalApi.webhooks.create.mutate({ workspace, ...endpointFields(form) }),
    onAdded,
  );

  return (
    <Form onSubmit={onSubmit} noValidate aria-labelledby="add-heading">
      <FormProblemAlert problem={problem} fieldsSummary="The endpoint was not added: see the fields marked below." />
      <EndpointFields projects={projects} eventTypes={eventTypes} error={error} />
      <FormActions>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add endpoint'}
        </Button>
      </FormActions>
    </Form>
  );
}
