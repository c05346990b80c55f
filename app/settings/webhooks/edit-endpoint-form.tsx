'use client';

import type { EndpointView } from '@/server/settings/webhooks';
import type { EventType } from '@/server/webhooks/events';
import { Button } from '../../ui/button';
import { Form, FormActions } from '../../ui/form';
import { FormProblemAlert, useFormSubmission } from '../form-submission';
import { internalApi } from '../internal-api';
import { endpointFields, EndpointFields, type Project } from './endpoint-fields';

/** An endpoint's URL, events and project, changed in place; its secret stays. */
export function EditEndpointForm({
  workspace,
  endpoint,
  projects,
  eventTypes,
  onSaved,
  onCancel,
}: {
  workspace: string;
  endpoint: EndpointView;
  projects: Project[];
  eventTypes: readonly EventType[];
  onSaved: (saved: EndpointView) => void;
  onCancel: () => void;
}) {
  const { problem, busy, onSubmit, error } = useFormSubmission(
    (form) => internalApi.webhooks.update.mutate({ workspace, id: endpoint.id, ...endpointFields(form) }),
    onSaved,
  );

  return (
    <Form onSubmit={onSubmit} noValidate aria-label={`Change ${endpoint.url}`}>
      <FormProblemAlert problem={problem} fieldsSummary="The endpoint was not changed: see the fields marked below." />
      <EndpointFields idPrefix={`edit-${endpoint.id}-`} projects={projects} eventTypes={eventTypes} initial={endpoint} error={error} />
      <FormActions>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </FormActions>
    </Form>
  );
}
