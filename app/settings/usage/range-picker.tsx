import Link from 'next/link';
import { USAGE_RANGES, type UsageRange } from '@/server/settings/usage-ranges';
import styles from './usage.module.css';

/** The range as links that keep it in the URL: a reload or a shared link shows the same range, with or without script. */
export function RangePicker({ workspace, current }: { workspace: string; current: UsageRange }) {
  return (
    <nav aria-label="Range" className={styles.ranges}>
      {(Object.keys(USAGE_RANGES) as UsageRange[]).map((range) =>
        range === current ? (
          <span key={range} aria-current="page" className={styles.currentRange}>
            {USAGE_RANGES[range].label}
          </span>
        ) : (
          <Link
            key={range}
            href={`/settings/usage?workspace=${encodeURIComponent(workspace)}&range=${range}`}
            className={styles.range}
            prefetch={false}
          >
            {USAGE_RANGES[range].label}
          </Link>
        ),
      )}
    </nav>
  );
}
