'use client';

import Link from 'next/link';
import type { KeyView } from '@/server/settings/key-view';
import type { LastDay } from '@/server/usage/last-day';
import { LastDayLines } from '../activity/last-day';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { Badge, EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import { STATE_BADGE } from './format';
import styles from './key-list.module.css';

function When({ iso, none }: { iso: string | null; none: string }) {
  return iso ? <RelativeTime iso={iso} /> : <span className={styles.none}>{none}</span>;
}

export function KeyList({
  workspace,
  keys,
  lastDay,
  onRevoke,
}: {
  workspace: string;
  keys: KeyView[];
  lastDay: Record<string, LastDay>;
  onRevoke: (key: KeyView) => void;
}) {
  return (
    <DataTable
      caption="API keys of this workspace"
      columns={['Name', 'Key', 'Scopes', 'Projects', 'Created', 'Expires', 'Last used', 'State']}
      items={keys}
      empty={<EmptyState title="No API keys yet">Create one below to let a script, an agent or a service use this workspace.</EmptyState>}
      row={(key) => (
        <tr key={key.id} data-key-id={key.id}>
          <th scope="row">
            <Link href={`/settings/api-keys/${key.id}?workspace=${encodeURIComponent(workspace)}`} prefetch={false}>
              {key.name}
            </Link>
          </th>
          <td data-label="Key">
            <code>{key.hint}</code>
          </td>
          <td data-label="Scopes">{key.scopes.join(', ')}</td>
          <td data-label="Projects">{key.project ? key.project.name : 'All projects'}</td>
          <td data-label="Created">
            <When iso={key.createdAt} none="" />
            {key.createdBy && <span className={styles.none}> by {key.createdBy}</span>}
          </td>
          <td data-label="Expires">
            <When iso={key.expiresAt} none="Never" />
          </td>
          <td data-label="Last used">
            <When iso={key.lastUsedAt} none="Never" />
            <LastDayLines lastDay={lastDay[key.id]} />
          </td>
          <td data-label="State">
            <Badge tone={STATE_BADGE[key.state].tone}>{STATE_BADGE[key.state].label}</Badge>
          </td>
          <td>
            {key.state !== 'revoked' && (
              <Button variant="danger" onClick={() => onRevoke(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </Button>
            )}
          </td>
        </tr>
      )}
    />
  );
}
