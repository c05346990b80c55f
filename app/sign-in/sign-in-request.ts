/** Signs in through better-auth's endpoint; the answer sets the session cookie. Null means success. */
export async function requestSignIn(email: string, password: string): Promise<string | null> {
  try {
    const response = await fetch('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (response.ok) return null;
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    return response.status === 401 ? 'Wrong email or password.' : (body.message ?? 'Sign-in failed. Try again.');
  } catch {
    return 'The server could not be reached. Try again.';
  }
}
