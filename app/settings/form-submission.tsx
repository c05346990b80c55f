'use client';

import { useState, type FormEvent } from 'react';
import { Callout } from '../ui/feedback';
import { formProblem, type FormProblem } from './internal-api';

/**
 * A form sent through the settings API: busy while it is on its way; on success the
 * form is cleared and `done` gets the answer, on failure `problem` holds why, field by field.
 */
export function useFormSubmission<Result>(send: (form: FormData) => Promise<Result>, done: (result: Result) => void) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    setBusy(true);
    try {
      const result = await send(new FormData(formElement));
      setProblem(null);
      formElement.reset();
      done(result);
    } catch (caught) {
      setProblem(formProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return { problem, busy, onSubmit, error: (field: string) => problem?.fields[field] };
}

/** Above the form: what went wrong, or, when fields are marked, `fieldsSummary` pointing at them. */
export function FormProblemAlert({ problem, fieldsSummary }: { problem: FormProblem | null; fieldsSummary: string }) {
  if (!problem) return null;
  return (
    <Callout tone="danger" role="alert">
      {Object.keys(problem.fields).length > 0 ? fieldsSummary : problem.message}
    </Callout>
  );
}
