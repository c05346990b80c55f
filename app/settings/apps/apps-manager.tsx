'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { AppView } from '@/server/settings/apps';
import type { LastDay } from '@/server/usage/last-day';
import { LastDayLines } from '../activity/last-day';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataTable } from '../../ui/data-table';
import { Badge, Callout, EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import { formProblem, internalApi } from '../internal-api';

/** Each app approved in the workspace, who approved it and what it may do; Revoke asks first. */
export function AppsManager({
  workspace,
  initialApps,
  lastDay,
}: {
  workspace: string;
  initialApps: AppView[];
  /** Each app's requests of the last 24 hours, as the page was rendered. */
  lastDay: Record<string, LastDay>;
}) {
  const [apps, setApps] = useState(initialApps);
  const [revoking, setRevoking] = useState<AppView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function revoke(app: AppView) {
    setRevoking(null);
    try {
      const revoked = await internalApi.apps.revoke.mutate({ workspace, id: app.id });
      setApps((current) => current.map((each) => (each.id === revoked.id ? revoked : each)));
      setProblem(null);
    } catch (error) {
      setProblem(formProblem(error).message);
    }
  }

  return (
    <>
      {problem && (
        <Callout tone="danger" role="alert">
          {problem}
        </Callout>
      )}
      <DataTable
        caption="Connected apps"
        columns={['App', 'Approved by', 'Scopes', 'Project', 'Connected', 'Last used']}
        items={apps}
        empty={
          <EmptyState title="No connected apps">
            An app connects when someone approves it on the consent page, after adding this server&apos;s MCP address (…/v1/mcp) to Claude,
            ChatGPT, Cursor or VS Code.
          </EmptyState>
        }
        row={(app) => (
          <tr key={app.id}>
            <th scope="row" data-label="App">
              <Link href={`/settings/apps/${app.id}?workspace=${encodeURIComponent(workspace)}`} prefetch={false}>
                {app.app}
              </Link>{' '}
              <Badge tone={app.state === 'active' ? 'ok' : 'muted'}>{app.state}</Badge>
            </th>
            <td data-label="Approved by">{app.approvedBy ?? '—'}</td>
            <td data-label="Scopes">{app.scopes.join(', ')}</td>
            <td data-label="Project">{app.project?.name ?? 'All projects'}</td>
            <td data-label="Connected">
              <RelativeTime iso={app.createdAt} />
            </td>
            <td data-label="Last used">
              {app.lastUsedAt ? <RelativeTime iso={app.lastUsedAt} /> : 'Never'}
              <LastDayLines lastDay={lastDay[app.id]} />
            </td>
            <td>
              {app.state === 'active' && (
                <Button variant="danger" onClick={() => setRevoking(app)}>
                  Revoke
                </Button>
              )}
            </td>
          </tr>
        )}
      />
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.app}?`}
          confirmLabel="Revoke"
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(null)}
        >
          <p>Its next request answers 401, and it has to be connected and approved again.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
