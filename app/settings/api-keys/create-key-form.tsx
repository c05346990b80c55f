'use client';

import { useState } from 'react';
import { EXPIRY_DAYS } from '@/server/settings/expiry-choices';
import type { Expiry } from '@/server/settings/key-inputs';
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from '@/server/keys/scopes';
import { Button } from '../../ui/button';
import { Choice, ChoiceGroup, controlProps, Field, Form, FormActions } from '../../ui/form';
import { FormProblemAlert, useFormSubmission } from '../form-submission';
import { internalApi } from '../internal-api';

export interface Project {
  id: string;
  name: string;
}

export type CreatedKey = Awaited<ReturnType<typeof internalApi.keys.create.mutate>>;

function expiryOf(form: FormData): Expiry {
  const choice = String(form.get('expiry'));
  if (choice === 'never') return { kind: 'never' };
  if (choice === 'date') return { kind: 'date', date: String(form.get('expiryDate')) };
  return { kind: 'days', days: Number(choice) as (typeof EXPIRY_DAYS)[number] };
}

export function CreateKeyForm({
  workspace,
  projects,
  onCreated,
}: {
  workspace: string;
  projects: Project[];
  onCreated: (created: CreatedKey) => void;
}) {
  const [expiryChoice, setExpiryChoice] = useState('90');
  const { problem, busy, onSubmit, error } = useFormSubmission(
    (form) =>
      internalApi.keys.create.mutate({
        workspace,
        name: String(form.get('name')),
        scopes: form.getAll('scopes').map(String) as Scope[],
        projectId: String(form.get('projectId')) || null,
        expiry: expiryOf(form),
      }),
    (created) => {
      setExpiryChoice('90');
      onCreated(created);
    },
  );

  return (
    <Form onSubmit={onSubmit} noValidate aria-labelledby="create-heading">
      <FormProblemAlert problem={problem} fieldsSummary="The key was not created: see the fields marked below." />
      <Field id="name" label="Name" help="Say what uses the key, so whoever reads this list later knows." error={error('name')}>
        <input {...controlProps('name', error('name'), { help: true })} type="text" autoComplete="off" placeholder="e.g. CI deploy bot" />
      </Field>

      <ChoiceGroup id="scopes" legend="Scopes" help="At least one." error={error('scopes')}>
        {SCOPES.map((scope) => (
          <Choice key={scope} label={<code>{scope}</code>} description={SCOPE_DESCRIPTIONS[scope]}>
            <input type="checkbox" name="scopes" value={scope} aria-invalid={error('scopes') ? true : undefined} />
          </Choice>
        ))}
      </ChoiceGroup>

      <Field id="projectId" label="Projects" help="A key for one project cannot see the others." error={error('projectId')}>
        <select {...controlProps('projectId', error('projectId'), { help: true })} defaultValue="">
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              Only {project.name}
            </option>
          ))}
        </select>
      </Field>

      <Field id="expiry" label="Expires" error={expiryChoice === 'date' ? undefined : error('expiry')}>
        <select
          {...controlProps('expiry', expiryChoice === 'date' ? undefined : error('expiry'))}
          value={expiryChoice}
          onChange={(event) => setExpiryChoice(event.target.value)}
        >
          <option value="never">Never</option>
          {EXPIRY_DAYS.map((days) => (
            <option key={days} value={String(days)}>
              In {days} days
            </option>
          ))}
          <option value="date">On a date…</option>
        </select>
      </Field>
      {expiryChoice === 'date' && (
        <Field id="expiryDate" label="Expiry date" help="The key works until the end of that day, UTC." error={error('expiry')}>
          <input {...controlProps('expiryDate', error('expiry'), { help: true })} type="date" />
        </Field>
      )}

      <FormActions>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </Button>
      </FormActions>
    </Form>
  );
}
