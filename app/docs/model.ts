/**
 * The parts of an OpenAPI 3.1 document the reference page reads, and the few
 * lookups it needs. Plain data in, plain data out: no client code.
 */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
}

export interface Response {
  description?: string;
  headers?: Record<string, { description?: string; schema?: Schema }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
  security?: Record<string, string[]>[];
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, SecurityScheme> };
}

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface OperationEntry {
  id: string;
  method: string;
  path: string;
  operation: Operation;
}

/** Operations grouped by their first tag, in the document's order. */
export function operationsByTag(document: ApiDocument): [string, OperationEntry[]][] {
  const groups = new Map<string, OperationEntry[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      const entry = { id: operationAnchor(method, path), method, path, operation };
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  return [...groups];
}

export function operationAnchor(method: string, path: string): string {
  return `${method}-${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

export const schemaAnchor = (name: string) => `schema-${name}`;

/** `#/components/schemas/Task` → `Task`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** The schema a `$ref` names, or the schema itself. */
export function resolve(document: ApiDocument, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return document.components?.schemas?.[refName(schema.$ref)] ?? schema;
}

/** A schema's description, else the description of what it refers to. */
export function describe(document: ApiDocument, schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (schema.description) return schema.description;
  const variant = (schema.anyOf ?? schema.oneOf)?.find((s) => s.description || s.$ref);
  if (variant) return describe(document, variant);
  return schema.$ref ? resolve(document, schema).description : undefined;
}

/** The facts a reader needs beside the type: allowed values, bounds, default. */
export function constraints(document: ApiDocument, schema: Schema): string[] {
  const target = resolve(document, schema);
  const facts: string[] = [];
  const values = target.enum ?? (schema.anyOf ?? schema.oneOf)?.map((s) => resolve(document, s).enum).find(Boolean);
  if (values) facts.push(`one of ${values.map((v) => String(v)).join(', ')}`);
  const number = (value: number | undefined) => value !== undefined && Math.abs(value) < Number.MAX_SAFE_INTEGER;
  if (number(target.minimum)) facts.push(`minimum ${target.minimum}`);
  if (number(target.maximum)) facts.push(`maximum ${target.maximum}`);
  if (target.minLength !== undefined) facts.push(`at least ${target.minLength} characters`);
  if (target.maxLength !== undefined) facts.push(`at most ${target.maxLength} characters`);
  if (target.maxItems !== undefined) facts.push(`at most ${target.maxItems} items`);
  if (schema.default !== undefined) facts.push(`default ${JSON.stringify(schema.default)}`);
  return facts;
}
