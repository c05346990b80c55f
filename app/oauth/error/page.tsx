import type { Metadata } from 'next';
import styles from '../../settings/settings.module.css';

export const metadata: Metadata = { title: 'Cannot connect the app · Task API' };
export const dynamic = 'force-dynamic';

/**
 * Where the authorization server explains a request it cannot send back to the app
 * (RFC 6749 section 4.1.2.1: an unknown client or an unregistered redirect URI is
 * never redirected to). The text is the library's, shown as text only.
 */
export default async function OAuthErrorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const first = (name: string) => {
    const value = params[name];
    return (Array.isArray(value) ? value[0] : value)?.slice(0, 300);
  };
  return (
    <main className={styles.narrow}>
      <h1>Cannot connect the app</h1>
      <p role="alert" className={styles.alert}>
        {first('error_description') ?? 'The app sent an authorization request this server cannot accept.'}
      </p>
      <p className={styles.muted}>
        {first('error') ?? 'invalid_request'}. Nothing was shared with the app. Go back to it and connect again; if this repeats, tell
        whoever makes the app.
      </p>
    </main>
  );
}
