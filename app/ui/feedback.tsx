import type { ReactNode } from 'react';
import styles from './feedback.module.css';

export type Tone = 'info' | 'ok' | 'warn' | 'danger' | 'muted';

/**
 * A message set apart from the page: `role="alert"` for a problem the person must
 * act on now, `role="status"` for news that can wait.
 */
export function Callout({ tone, role, children }: { tone: Tone; role?: 'alert' | 'status'; children: ReactNode }) {
  return (
    <div role={role} className={`${styles.callout} ${styles[tone]}`}>
      {children}
    </div>
  );
}

/** The line that reports what the last action did; screen readers read it when it changes. */
export function StatusLine({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={styles.status}>
      {children}
    </p>
  );
}

/** A short state in a pill: its colour repeats the word, never replaces it. */
export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`${styles.badge} ${styles[tone]}`}>{children}</span>;
}

/** What an empty list says instead of an empty table: that nothing is there yet and how to add the first. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={styles.empty} data-testid="empty-state">
      <p className={styles.emptyTitle}>{title}</p>
      {children && <p className={styles.emptyText}>{children}</p>}
    </div>
  );
}
