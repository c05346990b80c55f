'use client';

import { useState, type FormEvent } from 'react';
import { SCOPE_DESCRIPTIONS, TASK_SCOPES, type Scope } from '@/server/keys/scopes';
import { formProblem, internalApi } from '../../settings/internal-api';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/feedback';
import { Choice, ChoiceGroup, controlProps, Field, Form, FormActions } from '../../ui/form';

interface Workspace {
  id: string;
  slug: string;
  name: string;
}

interface Project {
  id: string;
  name: string;
  workspaceId: string;
}

export function ConsentForm({
  oauthQuery,
  workspaces,
  projects,
  scopes,
}: {
  oauthQuery: string;
  workspaces: Workspace[];
  projects: Project[];
  scopes: Scope[];
}) {
  const [workspace, setWorkspace] = useState(workspaces[0]?.slug ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const workspaceId = workspaces.find(({ slug }) => slug === workspace)?.id;

  async function answer(run: () => Promise<{ redirectTo: string }>) {
    setBusy(true);
    try {
      const { redirectTo } = await run();
      window.location.assign(redirectTo);
    } catch (error) {
      setProblem(formProblem(error).message);
      setBusy(false);
    }
  }

  function approve(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void answer(() =>
      internalApi.apps.approve.mutate({
        oauthQuery,
        workspace,
        scopes: form.getAll('scopes').map(String) as Scope[],
        projectId: String(form.get('projectId') ?? '') || null,
      }),
    );
  }

  return (
    <Form onSubmit={approve} aria-label="Approve or deny">
      {problem && (
        <Callout tone="danger" role="alert">
          {problem}
        </Callout>
      )}
      {workspaces.length > 0 && (
        <>
          <Field id="workspace" label="Workspace">
            <select {...controlProps('workspace', undefined)} value={workspace} onChange={(event) => setWorkspace(event.target.value)}>
              {workspaces.map(({ slug, name }) => (
                <option key={slug} value={slug}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
          <Field id="projectId" label="Project">
            <select {...controlProps('projectId', undefined)} key={workspace} defaultValue="">
              <option value="">All projects</option>
              {projects
                .filter((project) => project.workspaceId === workspaceId)
                .map(({ id, name }) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
            </select>
          </Field>
          <ChoiceGroup id="scopes" legend="It may">
            {scopes.map((scope) => (
              <Choice key={scope} label={SCOPE_DESCRIPTIONS[scope]} description={<code>{scope}</code>}>
                {/* Beyond the tasks' scopes (the audit log, the request log, usage, webhooks), nothing is granted unless the person ticks it, even when the app asks. */}
                <input type="checkbox" name="scopes" value={scope} defaultChecked={(TASK_SCOPES as readonly string[]).includes(scope)} />
              </Choice>
            ))}
          </ChoiceGroup>
        </>
      )}
      <FormActions>
        {workspaces.length > 0 && (
          <Button type="submit" variant="primary" disabled={busy}>
            Approve
          </Button>
        )}
        <Button disabled={busy} onClick={() => void answer(() => internalApi.apps.deny.mutate({ oauthQuery }))}>
          Deny
        </Button>
      </FormActions>
    </Form>
  );
}
