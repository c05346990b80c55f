import type { Metadata } from 'next';
import { AppShell, PageHeader } from '../../ui/app-shell';
import { Callout } from '../../ui/feedback';

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
    <AppShell width="narrow">
      <PageHeader
        title="Cannot connect the app"
        description={`${first('error') ?? 'invalid_request'}. Nothing was shared with the app. Go back to it and connect again; if this repeats, tell whoever makes the app.`}
      />
      <Callout tone="danger" role="alert">
        {first('error_description') ?? 'The app sent an authorization request this server cannot accept.'}
      </Callout>
    </AppShell>
  );
}
