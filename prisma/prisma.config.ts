import { defineConfig } from 'prisma/config';

// Prisma resolves these paths against this file's directory (prisma/), not the working directory.
// DATABASE_URL is read directly rather than with env(), which throws when it is unset:
// `prisma generate` (the postinstall) needs no database.
export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  datasource: {
    url: process.env.DATABASE_URL,
    ...(process.env.SHADOW_DATABASE_URL && { shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL }),
  },
});
