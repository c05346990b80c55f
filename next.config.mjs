/** @type {import('next').NextConfig} */
const nextConfig = {
  // Keep server-only packages out of the bundle: they load wasm and native files at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg', '@prisma/adapter-pg', 'ioredis'],
  poweredByHeader: false,
  typedRoutes: false,
  // The production server loads a page's code when it is first asked for, not all at start:
  // the public API never goes through its App Router route there (server/launch/production-server.ts).
  experimental: { preloadEntriesOnStart: false },
};

export default nextConfig;
