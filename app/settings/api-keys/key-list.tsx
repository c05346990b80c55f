'use client';

import type { KeyView } from '@/server/settings/key-view';
import { DataTable } from '../data-table';
import styles from '../settings.module.css';
import { formatDate } from '../format-date';
import { STATE_LABEL } from './format';

function When({ iso, none }: { iso: string | null; none: string }) {
  return iso ? <time dateTime={iso}>{formatDate(iso)}</time> : <span className={styles.muted}>{none}</span>;
}

export function KeyList({ keys, onRevoke }: { keys: KeyView[]; onRevoke: (key: KeyView) => void }) {
  if (keys.length === 0) return <p className={styles.muted}>No API keys yet.</p>;
  return (
    <DataTable
      caption="API keys of this workspace"
      columns={['Name', 'Key', 'Scopes', 'Projects', 'Created', 'Expires', 'Last used', 'State']}
    >
      {keys.map((key) => (
        <tr key={key.id} data-key-id={key.id}>
          <th scope="row">{key.name}</th>
          <td data-label="Key">
            <code>{key.hint}</code>
          </td>
          <td data-label="Scopes">{key.scopes.join(', ')}</td>
          <td data-label="Projects">{key.project ? key.project.name : 'All projects'}</td>
          <td data-label="Created">
            <When iso={key.createdAt} none="" />
            {key.createdBy && <span className={styles.muted}> by {key.createdBy}</span>}
          </td>
          <td data-label="Expires">
            <When iso={key.expiresAt} none="Never" />
          </td>
          <td data-label="Last used">
            <When iso={key.lastUsedAt} none="Never" />
          </td>
          <td data-label="State">
            <span className={`${styles.badge} ${styles[key.state]}`}>{STATE_LABEL[key.state]}</span>
          </td>
          <td>
            {key.state !== 'revoked' && (
              <button type="button" className={styles.danger} onClick={() => onRevoke(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
