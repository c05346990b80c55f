import type { ReactNode } from 'react';
import styles from './settings.module.css';

/**
 * A settings list as a table: a caption for screen readers, a header row of
 * `columns` and one of actions, whose rows (`children`) start with a row header
 * and give each cell a `data-label`, which narrow screens show beside it.
 */
export function DataTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className={styles.visuallyHidden}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className={styles.visuallyHidden}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
