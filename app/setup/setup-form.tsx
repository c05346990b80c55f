'use client';

import { TRPCClientError } from '@trpc/client';
import { useState, type FormEvent } from 'react';
import { FormProblemAlert } from '../settings/form-submission';
import { formProblem, internalApi, type FormProblem } from '../settings/internal-api';
import { Button } from '../ui/button';
import { controlProps, Field, Form, FormActions } from '../ui/form';
import { requestSignIn } from '../sign-in/sign-in-request';
import { refusedOriginMessage, type AppAddress } from '../sign-in/wrong-origin';

const FIELDS = [
  { id: 'setupCode', label: 'Setup code', type: 'text', autoComplete: 'off' },
  { id: 'workspaceName', label: 'Workspace name', type: 'text', autoComplete: 'organization' },
  { id: 'workspaceSlug', label: 'Workspace slug (lowercase letters, digits, dashes)', type: 'text', autoComplete: 'off' },
  { id: 'name', label: 'Your name', type: 'text', autoComplete: 'name' },
  { id: 'email', label: 'Your email', type: 'email', autoComplete: 'username' },
  { id: 'password', label: 'Password (at least 8 characters)', type: 'password', autoComplete: 'new-password' },
] as const;

type SetupInput = Record<(typeof FIELDS)[number]['id'], string>;

/** Where the person setting up finds the code: the page never shows it. */
function codeHelp(fromEnv: boolean): string {
  return fromEnv
    ? 'The value of SETUP_TOKEN in the server’s environment.'
    : 'In the server’s log, in the line that starts with “Setup code:” (on Vercel: this deployment’s function logs). Opening this page writes it there again.';
}

export function SetupForm({
  address,
  codeFromEnv,
  initialProblem,
}: {
  address: AppAddress;
  codeFromEnv: boolean;
  initialProblem: string | null;
}) {
  const [problem, setProblem] = useState<FormProblem | null>(initialProblem === null ? null : { message: initialProblem, fields: {} });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = Object.fromEntries(FIELDS.map(({ id }) => [id, String(form.get(id) ?? '')])) as SetupInput;
    setBusy(true);
    try {
      await internalApi.setup.createOwner.mutate(input);
    } catch (error) {
      const refused = error instanceof TRPCClientError && error.data?.httpStatus === 403 ? refusedOriginMessage(address, '/setup') : null;
      setProblem(refused === null ? formProblem(error) : { message: refused, fields: {} });
      setBusy(false);
      return;
    }
    const failure = await requestSignIn(input.email, input.password, address);
    window.location.assign(failure === null ? '/settings/api-keys' : '/sign-in');
  }

  return (
    <Form method="post" onSubmit={submit} noValidate>
      <FormProblemAlert problem={problem} fieldsSummary="Some fields need attention." />
      {FIELDS.map(({ id, label, type, autoComplete }) => (
        <Field key={id} id={id} label={label} error={problem?.fields[id]} help={id === 'setupCode' ? codeHelp(codeFromEnv) : undefined}>
          <input
            {...controlProps(id, problem?.fields[id], { help: id === 'setupCode' })}
            type={type}
            autoComplete={autoComplete}
            spellCheck={id === 'setupCode' ? false : undefined}
          />
        </Field>
      ))}
      <FormActions>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create workspace and owner'}
        </Button>
      </FormActions>
    </Form>
  );
}
