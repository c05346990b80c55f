'use client';

import { Button } from '../ui/button';

export function SignOutButton() {
  async function signOut() {
    await fetch('/api/auth/sign-out', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    window.location.assign('/sign-in');
  }
  return (
    <Button variant="link" onClick={signOut}>
      Sign out
    </Button>
  );
}
