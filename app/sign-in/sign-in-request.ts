import { refusedOriginMessage, type AppAddress } from './wrong-origin';

/** Signs in through better-auth's endpoint; the answer sets the session cookie. Null means success. */
export async function requestSignIn(email: string, password: string, address: AppAddress): Promise<string | null> {
  try {
    const response = await fetch('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (response.ok) return null;
    if (response.status === 401) return 'Wrong email or password.';
    const refused = response.status === 403 ? refusedOriginMessage(address, '/sign-in') : null;
    if (refused) return refused;
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    return body.message ?? 'Sign-in failed. Try again.';
  } catch {
    return 'The server could not be reached. Try again.';
  }
}
