import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { SettingsRouter } from '@/server/settings/router';

/** The browser's side of the internal settings router; the session cookie rides along. */
export const internalApi = createTRPCClient<SettingsRouter>({ links: [httpLink({ url: '/api/internal' })] });

export interface FormProblem {
  message: string;
  fields: Record<string, string>;
}

/** What a failed call means to a form: a summary and the problems of single fields. */
export function formProblem(error: unknown): FormProblem {
  if (error instanceof TRPCClientError) {
    const data = error.data as { fieldErrors?: Record<string, string> } | undefined;
    return { message: error.message, fields: data?.fieldErrors ?? {} };
  }
  return { message: 'The server could not be reached. Try again.', fields: {} };
}
