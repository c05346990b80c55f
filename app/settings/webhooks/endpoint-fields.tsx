'use client';

import type { EventType } from '@/server/webhooks/events';
import { Choice, ChoiceGroup, controlProps, Field } from '../../ui/form';

export interface Project {
  id: string;
  name: string;
}

/** What an endpoint's form sends: the same fields to add one and to change one. */
export function endpointFields(form: FormData) {
  return {
    url: String(form.get('url') ?? ''),
    events: form.getAll('events').map(String) as EventType[],
    projectId: String(form.get('project') ?? '') || null,
    deliverOnPreviews: form.get('previews') === 'on',
  };
}

/**
 * URL, events and project, as both forms show them; `idPrefix` keeps the ids of a
 * form changing an endpoint apart from the add form's on the same page.
 */
export function EndpointFields({
  idPrefix = '',
  projects,
  eventTypes,
  initial,
  error,
}: {
  idPrefix?: string;
  projects: Project[];
  eventTypes: readonly EventType[];
  initial?: { url: string; events: string[]; projectId: string | null; deliverOnPreviews: boolean };
  error: (field: string) => string | undefined;
}) {
  const id = (name: string) => `${idPrefix}${name}`;
  return (
    <>
      <Field
        id={id('url')}
        label="URL"
        help="An https address on the public internet; each event arrives as a signed POST."
        error={error('url')}
      >
        <input
          {...controlProps(id('url'), error('url'), { help: true })}
          name="url"
          type="url"
          autoComplete="off"
          placeholder="https://example.com/hooks/tasks"
          defaultValue={initial?.url}
        />
      </Field>
      <ChoiceGroup
        id={id('events')}
        legend="Events"
        help="None checked: every task, comment and attachment event. audit.event, the audit log, only when checked, for all projects."
        error={error('events')}
      >
        {eventTypes.map((type) => (
          <Choice key={type} label={type}>
            <input type="checkbox" name="events" value={type} defaultChecked={initial?.events.includes(type)} />
          </Choice>
        ))}
      </ChoiceGroup>
      <Field id={id('project')} label="Project" error={error('projectId')}>
        <select {...controlProps(id('project'), error('projectId'))} name="project" defaultValue={initial?.projectId ?? ''}>
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </Field>
      <ChoiceGroup
        id={id('previews')}
        legend="Preview deployments"
        help="A preview deployment sends only to the endpoints created on a preview, and holds the others' deliveries: check this for a receiver meant for previews' test events."
      >
        <Choice label="Deliver from preview deployments">
          <input type="checkbox" name="previews" defaultChecked={initial?.deliverOnPreviews} />
        </Choice>
      </ChoiceGroup>
    </>
  );
}
