import type { LastDay } from '@/server/usage/last-day';
import { formatCount, formatRate } from './format';
import styles from './activity.module.css';

/** A key's or app's cell in its list: its requests of the last 24 hours and the share that were errors. */
export function LastDayCell({ lastDay }: { lastDay: LastDay | undefined }) {
  if (!lastDay) return <span className={styles.muted}>No requests</span>;
  return (
    <>
      {formatCount(lastDay.requests)} <span className={styles.muted}>· {formatRate(lastDay.errors, lastDay.requests)} errors</span>
    </>
  );
}
