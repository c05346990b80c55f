/**
 * A tRPC router's procedures with their metadata, by path (`tasks.create`). tRPC
 * has no public way to walk a router; trpc-to-openapi reads the same record.
 *
 * @fits @trpc/server@11.25.2
 * Relies on: `router._def.procedures`, each procedure's `_def.meta`, `_def.inputs` and `_def.output`.
 * Guarded by: tests/api/openapi.test.ts ("walks all twelve procedures, in registration order")
 * and tests/mcp/tools.test.ts (the tools' schemas are the procedures' own).
 */
export function routerProcedures<TMeta>(router: { _def: { procedures: object } }): Map<string, TMeta> {
  return new Map([...procedureDefs<TMeta>(router)].map(([path, def]) => [path, def.meta ?? ({} as TMeta)]));
}

/** A procedure's input parsers (merged in order by tRPC) and its output parser, as declared. */
export interface ProcedureSchemas {
  inputs: unknown[];
  output: unknown;
}

export function routerProcedureSchemas(router: { _def: { procedures: object } }): Map<string, ProcedureSchemas> {
  return new Map([...procedureDefs(router)].map(([path, def]) => [path, { inputs: def.inputs ?? [], output: def.output }]));
}

interface ProcedureDef<TMeta> {
  meta?: TMeta;
  inputs?: unknown[];
  output?: unknown;
}

function procedureDefs<TMeta>(router: { _def: { procedures: object } }): Map<string, ProcedureDef<TMeta>> {
  const procedures = router._def.procedures as Record<string, { _def: ProcedureDef<TMeta> }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def]));
}
