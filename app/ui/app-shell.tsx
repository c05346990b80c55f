import Link from 'next/link';
import type { ReactNode } from 'react';
import styles from './app-shell.module.css';

/**
 * The frame of every page people sign in to: the bar with the product's name, the
 * page's navigation and the account, above one column of content. `narrow` is for
 * a single form (sign-in, setup, consent); `wide` for lists and tables.
 */
export function AppShell({
  nav,
  account,
  width = 'wide',
  children,
}: {
  nav?: ReactNode;
  account?: ReactNode;
  width?: 'wide' | 'narrow';
  children: ReactNode;
}) {
  return (
    <div className={styles.shell}>
      <header className={styles.topbar}>
        <Link href="/" className={styles.brand} prefetch={false}>
          Task API
        </Link>
        {nav && <div className={styles.nav}>{nav}</div>}
        {account && <div className={styles.account}>{account}</div>}
      </header>
      <main className={width === 'narrow' ? styles.narrow : styles.wide}>{children}</main>
    </div>
  );
}

export interface NavItem {
  href: string;
  name: string;
  current: boolean;
}

/**
 * Tabs between sibling pages; the current one is marked for screen readers, not only
 * by colour. Not prefetched: the pages are rendered per request, so a prefetch is a
 * whole render the server does for a click that may never come.
 */
export function NavTabs({ label, items }: { label: string; items: NavItem[] }) {
  return (
    <nav aria-label={label}>
      <ul className={styles.tabs}>
        {items.map((item) => (
          <li key={item.href}>
            {item.current ? (
              <span aria-current="page" className={styles.currentTab}>
                {item.name}
              </span>
            ) : (
              <Link href={item.href} className={styles.tab} prefetch={false}>
                {item.name}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The page's title, what it is about (`context`, e.g. the workspace), a line saying
 * what it is for, and `aside`: a control beside the title that wraps below it on a phone.
 */
export function PageHeader({
  title,
  context,
  description,
  aside,
}: {
  title: string;
  context?: string;
  description?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className={styles.pageHeader}>
      <div className={styles.titleRow}>
        <h1>
          {title}
          {context && <span className={styles.context}> · {context}</span>}
        </h1>
        {aside}
      </div>
      {description && <p className={styles.description}>{description}</p>}
    </div>
  );
}

/** A card of the page without a title of its own: the one form of a narrow page. */
export function Panel({ children }: { children: ReactNode }) {
  return <div className={styles.section}>{children}</div>;
}

/** A titled card of the page: a list or a form with a line of explanation. */
export function Section({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section className={styles.section} aria-labelledby={id}>
      <div className={styles.sectionHeader}>
        <h2 id={id}>{title}</h2>
        {description && <p className={styles.description}>{description}</p>}
      </div>
      {children}
    </section>
  );
}
