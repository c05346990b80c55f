import { TRPCError } from '@trpc/server';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { settingsError } from '@/server/settings/trpc';
import styles from './activity.module.css';

/** What a key's or app's page reads from its ?workspace= and its path. */
export interface DetailPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ workspace?: string | string[] }>;
}

/** A key or an app of another workspace, or none at all, is the 404 page: the page says nothing of what exists elsewhere. */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof TRPCError && settingsError(error).statusCode === 404) notFound();
    throw error;
  }
}

export function BackLink({ href, children }: { href: string; children: string }) {
  return (
    <Link href={href} className={styles.back} prefetch={false}>
      ← {children}
    </Link>
  );
}
