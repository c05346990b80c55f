const header = (key, value) => ({ key, value });

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded by Node, not bundled: the first group loads wasm and native files at run time. The
  // rest are bundled into each route's chunks otherwise, and every route a server process has
  // served held its own copy: a server that had served every page and route held 170 MB of
  // live heap against 115 MB with these loaded once (of the 192 MB cap, server-process.ts).
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-socket',
    'pg',
    '@prisma/adapter-pg',
    'ioredis',
    '@prisma/client',
    'better-auth',
    '@better-auth/mcp',
    '@better-auth/oauth-provider',
    'kysely',
    'jose',
    'zod',
    '@trpc/server',
    'trpc-to-openapi',
    '@modelcontextprotocol/sdk',
    '@upstash/ratelimit',
    '@upstash/redis',
    '@vercel/blob',
    'undici',
    'graphile-worker',
    'standardwebhooks',
  ],
  // graphile-worker's config search (cosmiconfig) can load a TypeScript config file, so the
  // tracer put TypeScript (19.8 of the public API function's 32.6 MB) into every function
  // that may load the worker. There is no such file, and the worker is loaded only after an
  // answer and in the Cron routes (server/http/deliver-after-response.ts, webhooks-cron.ts).
  outputFileTracingExcludes: { '*': ['node_modules/typescript/**'] },
  poweredByHeader: false,
  // The test suite's own build (tests/support/build.ts) skips the type check, a third of a
  // build's time: the types are checked by `npm run typecheck`, in CI and before a commit.
  typescript: { ignoreBuildErrors: process.env.BUILD_WITHOUT_TYPECHECK === '1' },
  typedRoutes: false,
  // The production server loads a page's code when it is first asked for, not all at start:
  // the public API never goes through its App Router route there (server/launch/production-server.ts).
  experimental: { preloadEntriesOnStart: false },
  // Headers for everything Next serves: pages, /api/auth, /api/internal, downloads. The public
  // API's answers carry their own (server/http/respond.ts): the production server serves them
  // without Next.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          // No page may be framed by another site (clickjacking the key buttons); X-Frame-Options for older browsers.
          header('X-Frame-Options', 'DENY'),
          header('X-Content-Type-Options', 'nosniff'),
          header('Referrer-Policy', 'same-origin'),
        ],
      },
      {
        // Next keeps a header set here over the one a route sets: the download route's stricter
        // policy (default-src 'none'; sandbox) must not be replaced by this one.
        source: '/((?!storage/).*)',
        headers: [header('Content-Security-Policy', "frame-ancestors 'none'")],
      },
      {
        // Browsers ignore HSTS over plain http; Vercel and proxies say how the client came in.
        source: '/:path*',
        has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https(\\s*,.*)?' }],
        headers: [header('Strict-Transport-Security', 'max-age=63072000')],
      },
    ];
  },
};

export default nextConfig;
