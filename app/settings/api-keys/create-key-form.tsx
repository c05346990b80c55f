'use client';

import { useState, type FormEvent } from 'react';
import { EXPIRY_DAYS } from '@/server/settings/expiry-choices';
import type { Expiry } from '@/server/settings/key-inputs';
import { SCOPES, type Scope } from '@/server/keys/scopes';
import { controlProps, Field, FieldError } from '../field';
import { formProblem, internalApi, type FormProblem } from '../internal-api';
import styles from '../settings.module.css';

export interface Project {
  id: string;
  name: string;
}

export type CreatedKey = Awaited<ReturnType<typeof internalApi.keys.create.mutate>>;

const SCOPE_TEXT: Record<Scope, string> = {
  'task:read': 'read statuses, labels, members, tasks, comments and attachments',
  'task:create': 'create tasks and upload attachments',
  'task:update': 'change and delete tasks, add comments',
};

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
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [expiryChoice, setExpiryChoice] = useState('90');
  const error = (field: string) => problem?.fields[field];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    try {
      const created = await internalApi.keys.create.mutate({
        workspace,
        name: String(form.get('name')),
        scopes: form.getAll('scopes').map(String) as Scope[],
        projectId: String(form.get('projectId')) || null,
        expiry: expiryOf(form),
      });
      setProblem(null);
      formElement.reset();
      setExpiryChoice('90');
      onCreated(created);
    } catch (caught) {
      setProblem(formProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className={styles.form} noValidate aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      {problem && (
        <p role="alert" className={styles.alert}>
          {Object.keys(problem.fields).length > 0 ? 'The key was not created: see the fields marked below.' : problem.message}
        </p>
      )}
      <Field id="name" label="Name" error={error('name')}>
        <input {...controlProps('name', error('name'))} type="text" autoComplete="off" placeholder="e.g. CI deploy bot" />
      </Field>

      <fieldset className={styles.fieldset} aria-describedby={error('scopes') ? 'scopes-error' : undefined}>
        <legend>Scopes (at least one)</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className={styles.check}>
            <input type="checkbox" name="scopes" value={scope} aria-invalid={error('scopes') ? true : undefined} />
            <code>{scope}</code> <span className={styles.muted}>{SCOPE_TEXT[scope]}</span>
          </label>
        ))}
        <FieldError id="scopes" error={error('scopes')} />
      </fieldset>

      <Field id="projectId" label="Projects" error={error('projectId')}>
        <select {...controlProps('projectId', error('projectId'))} defaultValue="">
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
        <Field id="expiryDate" label="Expiry date (the key works until the end of that day, UTC)" error={error('expiry')}>
          <input {...controlProps('expiryDate', error('expiry'))} type="date" />
        </Field>
      )}

      <button type="submit" className={styles.primary} disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
