'use client';

import { useState, type FormEvent } from 'react';
import { controlProps, Field } from '../settings/field';
import styles from '../settings/settings.module.css';
import { requestSignIn } from './sign-in-request';
import type { AppAddress } from './wrong-origin';

export function SignInForm({ address, initialProblem }: { address: AppAddress; initialProblem: string | null }) {
  const [problem, setProblem] = useState<string | null>(initialProblem);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const failure = await requestSignIn(String(form.get('email')), String(form.get('password')), address);
    if (failure === null) {
      window.location.assign('/settings/api-keys');
      return;
    }
    setProblem(failure);
    setBusy(false);
  }

  return (
    <form method="post" onSubmit={submit} className={styles.form}>
      {problem && (
        <p role="alert" className={styles.alert}>
          {problem}
        </p>
      )}
      <Field id="email" label="Email">
        <input {...controlProps('email', undefined)} type="email" autoComplete="username" required />
      </Field>
      <Field id="password" label="Password">
        <input {...controlProps('password', undefined)} type="password" autoComplete="current-password" required />
      </Field>
      <button type="submit" className={styles.primary} disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
