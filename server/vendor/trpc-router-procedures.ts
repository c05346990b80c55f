/**
 * A tRPC router's procedures with their metadata, by path (`tasks.create`). tRPC
 * has no public way to walk a router; trpc-to-openapi reads the same record.
 *
 * @fits @trpc/server@11.25.2
 * Relies on: `router._def.procedures`, each procedure's `_def.meta`.
 * Guarded by: tests/api/openapi.test.ts ("walks all twelve procedures, in registration order").
 */
export function routerProcedures<TMeta>(router: { _def: { procedures: object } }): Map<string, TMeta> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: TMeta } }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def.meta ?? ({} as TMeta)]));
}
