'use client';

import styles from './settings.module.css';

export function SignOutButton() {
  async function signOut() {
    await fetch('/api/auth/sign-out', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    window.location.assign('/sign-in');
  }
  return (
    <button type="button" className={styles.linkButton} onClick={signOut}>
      Sign out
    </button>
  );
}
