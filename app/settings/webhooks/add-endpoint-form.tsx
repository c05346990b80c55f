'use client';

import type { EventType } from '@/server/webhooks/events';
import { Button } from '../../ui/button';
import { Choice, ChoiceGroup, controlProps, Field, Form, FormActions } from '../../ui/form';
import { FormProblemAlert, useFormSubmission } from '../form-submission';
import { internalApi } from '../internal-api';

interface Project {
  id: string;
  name: string;
}

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
    (form) =>
      internalApi.webhooks.create.mutate({
        workspace,
        url: String(form.get('url') ?? ''),
        events: form.getAll('events').map(String) as EventType[],
        projectId: String(form.get('project') ?? '') || null,
      }),
    onAdded,
  );

  return (
    <Form onSubmit={onSubmit} noValidate aria-labelledby="add-heading">
      <FormProblemAlert problem={problem} fieldsSummary="The endpoint was not added: see the fields marked below." />
      <Field id="url" label="URL" help="An https address on the public internet; each event arrives as a signed POST." error={error('url')}>
        <input
          {...controlProps('url', error('url'), { help: true })}
          type="url"
          autoComplete="off"
          placeholder="https://example.com/hooks/tasks"
        />
      </Field>
      <ChoiceGroup id="events" legend="Events" help="None checked: every event." error={error('events')}>
        {eventTypes.map((type) => (
          <Choice key={type} label={type}>
            <input type="checkbox" name="events" value={type} />
          </Choice>
        ))}
      </ChoiceGroup>
      <Field id="project" label="Project" error={error('projectId')}>
        <select {...controlProps('project', error('projectId'))} defaultValue="">
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </Field>
      <FormActions>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add endpoint'}
        </Button>
      </FormActions>
    </Form>
  );
}
