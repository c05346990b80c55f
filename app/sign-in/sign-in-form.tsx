'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { Callout } from '../ui/feedback';
import { controlProps, Field, Form, FormActions } from '../ui/form';
import { requestSignIn } from './sign-in-request';
import type { AppAddress } from './wrong-origin';

export function SignInForm({ next, address, initialProblem }: { next: string; address: AppAddress; initialProblem: string | null }) {
  const [problem, setProblem] = useState<string | null>(initialProblem);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const failure = await requestSignIn(String(form.get('email')), String(form.get('password')), address);
    if (failure === null) {
      window.location.assign(next);
      return;
    }
    setProblem(failure);
    setBusy(false);
  }

  return (
    <Form method="post" onSubmit={submit}>
      {problem && (
        <Callout tone="danger" role="alert">
          {problem}
        </Callout>
      )}
      <Field id="email" label="Email">
        <input {...controlProps('email', undefined)} type="email" autoComplete="username" required />
      </Field>
      <Field id="password" label="Password">
        <input {...controlProps('password', undefined)} type="password" autoComplete="current-password" required />
      </Field>
      <FormActions>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </FormActions>
    </Form>
  );
}
