import nextEnv from '@next/env';

/**
 * The launchers and the admin CLI decide embedded versus configured components
 * before Next.js starts, so they read the .env files the way Next.js will.
 */
export function loadEnvFiles(mode: 'development' | 'production'): void {
  nextEnv.loadEnvConfig(process.cwd(), mode === 'development', { info: () => {}, error: console.error });
}
