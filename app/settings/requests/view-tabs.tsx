import Link from 'next/link';
import styles from '../usage/usage.module.css';
import type { RequestsView } from './search';

const VIEWS: [RequestsView, string][] = [
  ['list', 'All requests'],
  ['errors', 'Errors'],
];

/** The page's two views as links that keep the filters and put the view in the URL. */
export function ViewTabs({ current, href }: { current: RequestsView; href: (view: RequestsView) => string }) {
  return (
    <nav aria-label="View" className={styles.ranges}>
      {VIEWS.map(([view, label]) =>
        view === current ? (
          <span key={view} aria-current="page" className={styles.currentRange}>
            {label}
          </span>
        ) : (
          <Link key={view} href={href(view)} className={styles.range}>
            {label}
          </Link>
        ),
      )}
    </nav>
  );
}
