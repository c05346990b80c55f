import type { LastDay } from '@/server/usage/last-day';
import { formatCount, formatRate } from './format';
import styles from './activity.module.css';

/**
 * Under a key's or app's last use in its list: its requests of the last 24 hours and
 * the share that were errors. Nothing when it made none, so the list stays short.
 */
export function LastDayLines({ lastDay }: { lastDay: LastDay | undefined }) {
  if (!lastDay) return null;
  return (
    <>
      {' '}
      <span className={styles.line}>{formatCount(lastDay.requests)} in 24 h</span>{' '}
      <span className={`${styles.line} ${styles.muted}`}>{formatRate(lastDay.errors, lastDay.requests)} errors</span>
    </>
  );
}
