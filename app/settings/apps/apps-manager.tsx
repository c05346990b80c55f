'use client';

import { useState } from 'react';
import type { AppView } from '@/server/settings/apps';
import { ConfirmDialog } from '../confirm-dialog';
import { formatDate } from '../format-date';
import { formProblem, internalApi } from '../internal-api';
import styles from '../settings.module.css';

/** Each app approved in the workspace, who approved it and what it may do; Revoke asks first. */
export function AppsManager({ workspace, initialApps }: { workspace: string; initialApps: AppView[] }) {
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

  if (apps.length === 0) {
    return (
      <p role="status">
        No app is connected yet. An app connects when someone approves it on the consent page, after adding this server&apos;s MCP address
        (…/v1/mcp) to Claude, ChatGPT, Cursor or VS Code.
      </p>
    );
  }
  return (
    <>
      {problem && (
        <p role="alert" className={styles.alert}>
          {problem}
        </p>
      )}
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>App</th>
              <th>Approved by</th>
              <th>Scopes</th>
              <th>Project</th>
              <th>Connected</th>
              <th>Last used</th>
              <th>
                <span className={styles.visuallyHidden}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.id}>
                <td>
                  {app.app} <span className={`${styles.badge} ${styles[app.state]}`}>{app.state}</span>
                </td>
                <td>{app.approvedBy ?? '—'}</td>
                <td>{app.scopes.join(', ')}</td>
                <td>{app.project?.name ?? 'All projects'}</td>
                <td>{formatDate(app.createdAt)}</td>
                <td>{app.lastUsedAt ? formatDate(app.lastUsedAt) : 'Never'}</td>
                <td>
                  {app.state === 'active' && (
                    <button type="button" className={styles.danger} onClick={() => setRevoking(app)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
