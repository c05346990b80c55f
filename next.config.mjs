/** @type {import('next').NextConfig} */
const nextConfig = {
  // Keep server-only packages out of the bundle: they load wasm and native files at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg', '@prisma/adapter-pg', 'ioredis'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
