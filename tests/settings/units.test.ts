import { describe, expect, it } from 'vitest';
import { isSameOrigin } from '../../server/auth/origin';
import { needsSecureCookies } from '../../server/auth/session';
import { canManageKeys } from '../../server/auth/workspace-access';
import { expirySchema } from '../../server/settings/key-inputs';

describe('session cookies', () => {
  it.each(['http://localhost:3000', 'http://127.0.0.1:4000', 'http://[::1]:3000'])('are not Secure on %s', (url) => {
    expect(needsSecureCookies(url)).toBe(false);
  });
  it.each(['https://tasks.example.com', 'http://tasks.example.com', 'https://localhost'])('are Secure on %s', (url) => {
    expect(needsSecureCookies(url)).toBe(true);
  });
});

describe('origin check', () => {
  const headers = (origin?: string) => new Headers(origin ? { origin } : {});
  const origins = ['http://localhost:3000', 'https://task-api-git-main-team.vercel.app'];
  it.each(origins)('accepts the app’s own origin %s', (origin) => {
    expect(isSameOrigin(headers(origin), origins)).toBe(true);
  });
  it.each([undefined, 'null', 'https://evil.example', 'http://localhost:3001', 'https://localhost:3000', 'https://vercel.app'])(
    'refuses origin %s',
    (origin) => {
      expect(isSameOrigin(headers(origin), origins)).toBe(false);
    },
  );
});

describe('key managers', () => {
  it('are owners and admins, not members', () => {
    expect([canManageKeys('owner'), canManageKeys('admin'), canManageKeys('member')]).toEqual([true, true, false]);
  });
});

describe('key expiry', () => {
  it('is null for never', () => {
    expect(expirySchema.parse({ kind: 'never' })).toBeNull();
  });
  it('accepts only 30, 90 or 365 days', () => {
    expect(expirySchema.safeParse({ kind: 'days', days: 7 }).success).toBe(false);
    expect(expirySchema.safeParse({ kind: 'days', days: 365 }).success).toBe(true);
  });
  it('refuses a date that has passed', () => {
    const result = expirySchema.safeParse({ kind: 'date', date: '2001-01-01' });
    expect(result.error?.issues[0]?.message).toBe('must be in the future');
  });
  it('accepts today, which lasts until midnight UTC', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(expirySchema.parse({ kind: 'date', date: today })?.toISOString()).toBe(`${today}T23:59:59.999Z`);
  });
});
