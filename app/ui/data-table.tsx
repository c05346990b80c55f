import type { ReactNode } from 'react';
import styles from './data-table.module.css';
import hidden from './visually-hidden.module.css';

/**
 * A list as a table: a caption for screen readers, a header row of `columns` and
 * one for actions, and `row(item)` for each item, which starts with a row header and
 * gives each cell a `data-label`, shown beside it on a narrow screen, where each row
 * becomes a card. No items: `empty` instead of the table.
 */
export function DataTable<Item>({
  caption,
  columns,
  items,
  row,
  empty,
}: {
  caption: string;
  columns: string[];
  items: Item[];
  row: (item: Item) => ReactNode;
  empty: ReactNode;
}) {
  if (items.length === 0) return empty;
  return (
    <div className={styles.wrap}>
      <table className={styles.table}>
        <caption className={hidden.visuallyHidden}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className={hidden.visuallyHidden}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
