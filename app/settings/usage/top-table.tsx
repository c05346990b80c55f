import type { ReactNode } from 'react';
import type { Usage } from '@/server/schemas/usage';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/feedback';
import { formatCount, formatMs, formatRate } from '../activity/format';
import styles from './usage.module.css';

type Counts = Usage['total'];

export const errorsOf = (counts: Counts) => counts['4xx'] + counts['429'] + counts['5xx'];

/** The first rows of a ranking (keys and apps, or routes), each with a bar of its share of the most used one. */
export function TopTable<Row extends Counts>({
  caption,
  label,
  rows,
  name,
  rowKey,
}: {
  caption: string;
  label: string;
  rows: Row[];
  name: (row: Row) => ReactNode;
  rowKey: (row: Row) => string;
}) {
  const most = Math.max(1, ...rows.map((row) => row.requests));
  return (
    <DataTable
      caption={caption}
      columns={[label, 'Requests', 'Errors', 'p95']}
      items={rows}
      empty={<EmptyState title="No requests in this range" />}
      row={(row) => (
        <tr key={rowKey(row)}>
          <th scope="row" className={styles.name}>
            {name(row)}
          </th>
          <td data-label="Requests">
            <span className={styles.count}>{formatCount(row.requests)}</span>
            <svg className={styles.meter} viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
              <rect className={styles.meterTrack} width={100} height={6} />
              <rect className={styles.accent} width={(row.requests / most) * 100} height={6} />
            </svg>
          </td>
          <td data-label="Errors">{formatRate(errorsOf(row), row.requests)}</td>
          <td data-label="p95">{formatMs(row.p95Ms)}</td>
          <td />
        </tr>
      )}
    />
  );
}
