'use client';

import type { KeyView } from '@/server/settings/key-view';
import styles from '../settings.module.css';
import { formatDate, STATE_LABEL } from './format';

function When({ iso, none }: { iso: string | null; none: string }) {
  return iso ? <time dateTime={iso}>{formatDate(iso)}</time> : <span className={styles.muted}>{none}</span>;
}

export function KeyList({ keys, onRevoke }: { keys: KeyView[]; onRevoke: (key: KeyView) => void }) {
  if (keys.length === 0) return <p className={styles.muted}>No API keys yet.</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className={styles.visuallyHidden}>API keys of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Projects</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className={styles.visuallyHidden}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}
