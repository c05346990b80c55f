import fs from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { CLIENT_METHODS, DIRECT_UPLOAD, RENAMED } from './names.js';

/**
 * Writes the client's two generated files from the API's served OpenAPI document:
 * `src/generated/openapi.ts`, the types openapi-typescript makes of it, and
 * `src/generated/operations.ts`, the table the client builds its methods from.
 * Nothing else in the client names a path, a parameter or a field.
 *
 *   npm run generate -- http://localhost:3000/v1/public/openapi.json
 */

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
const HEADER = "// Generated from the API's served OpenAPI document by scripts/generate.ts (npm run generate): do not edit.\n";
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; maximum?: number; items?: Schema };
type Parameter = { name: string; in: string; $ref?: string };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
export type OpenApiDocument = {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>> & { parameters?: Parameter[] }>;
  components?: Record<string, Record<string, unknown>>;
};

export interface OperationSpec {
  id: string;
  method: string;
  path: string;
  /** The client's name of each path parameter (`project`), with the document's (`projectSlug`). */
  params: Record<string, string>;
  query: string[];
  body: 'json' | 'multipart' | null;
  response: 'json' | 'stream';
  /** On a list read page by page (`meta.nextCursor`), the member holding the page's items. */
  items?: string;
}

/** The types openapi-typescript generates from the document; file parts (`format: binary`) are Blobs. */
export async function openapiTypes(document: object): Promise<string> {
  const ast = await openapiTS(JSON.stringify(document), {
    transform(schema) {
      if (schema.format === 'binary') return BLOB;
      return undefined;
    },
  });
  return astToString(ast);
}

/** The generated files' text, by name under src/generated/. */
export async function generate(document: OpenApiDocument): Promise<Record<'openapi.ts' | 'operations.ts', string>> {
  const operations = operationTable(document);
  const upload = lookup(operations, DIRECT_UPLOAD);
  const size = upload && bodySchema(document, findOperation(document, upload.id))?.properties?.size;
  if (size?.maximum === undefined) throw new Error(`${DIRECT_UPLOAD}: the document gives no maximum size of a direct upload`);
  return {
    'openapi.ts': HEADER + (await openapiTypes(document)),
    'operations.ts':
      HEADER +
      `export const OPERATIONS = ${JSON.stringify(operations, null, 2)} as const;\n\n` +
      `/** The largest file an attachment may be, in bytes. */\nexport const MAX_UPLOAD_BYTES = ${size.maximum};\n`,
  };
}

function operationTable(document: OpenApiDocument): Record<string, Record<string, OperationSpec>> {
  const table: Record<string, Record<string, OperationSpec>> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const [namespace, name] = clientName(operation.operationId);
      if (CLIENT_METHODS.includes(`${namespace}.${name}`) || table[namespace]?.[name]) {
        throw new Error(`${operation.operationId}: the client already has a method ${namespace}.${name}; name it in scripts/names.ts`);
      }
      (table[namespace] ??= {})[name] = spec(document, path, method, operation, item.parameters ?? []);
    }
  }
  return Object.fromEntries(
    Object.entries(table)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([namespace, methods]) => [namespace, Object.fromEntries(Object.entries(methods).sort(([a], [b]) => a.localeCompare(b)))]),
  );
}

function clientName(operationId: string): [string, string] {
  const name = RENAMED[operationId] ?? operationId.replace('-', '.');
  const [namespace, method, ...rest] = name.split('.');
  if (!namespace || !method || rest.length > 0) throw new Error(`${operationId}: not <namespace>-<method>; name it in scripts/names.ts`);
  return [namespace, method];
}

function spec(document: OpenApiDocument, path: string, method: string, operation: Operation, shared: Parameter[]): OperationSpec {
  const parameters = [...shared, ...(operation.parameters ?? [])].map((parameter) => resolve<Parameter>(document, parameter));
  const params = Object.fromEntries(
    parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [shortName(parameter.name), parameter.name]),
  );
  const query = parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  const content = operation.requestBody?.content ?? {};
  const body = 'application/json' in content ? 'json' : 'multipart/form-data' in content ? 'multipart' : null;
  const fields = [...query, ...Object.keys(bodySchema(document, operation)?.properties ?? {})];
  const taken = Object.keys(params).find((name) => fields.includes(name));
  if (taken) throw new Error(`${operation.operationId}: the path parameter ${params[taken]} and a field are both called ${taken}`);

  const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const response = success?.content && !('application/json' in success.content) ? 'stream' : 'json';
  const result: OperationSpec = { id: operation.operationId!, method: method.toUpperCase(), path, params, query, body, response };
  const items = query.includes('after') && pageItems(document, success?.content?.['application/json']?.schema);
  if (items) result.items = items;
  return result;
}

/** `projectSlug` is `project`, `taskId` is `task`: the names the API's own examples use. */
function shortName(name: string): string {
  return name.replace(/(Slug|Id)$/, '');
}

/** A page is `{<items>: [...], meta: {nextCursor, ...}}`: the name of its one array member. */
function pageItems(document: OpenApiDocument, schema: Schema | undefined): string | undefined {
  const properties = schema && resolve<Schema>(document, schema).properties;
  const meta = properties?.meta && resolve<Schema>(document, properties.meta);
  if (!properties || !meta?.properties?.nextCursor) return undefined;
  const arrays = Object.entries(properties).filter(([, member]) => resolve<Schema>(document, member).type === 'array');
  return arrays.length === 1 ? arrays[0]![0] : undefined;
}

function bodySchema(document: OpenApiDocument, operation: Operation | undefined): Schema | undefined {
  const content = operation?.requestBody?.content ?? {};
  const schema = (content['application/json'] ?? content['multipart/form-data'])?.schema;
  return schema && resolve<Schema>(document, schema);
}

function findOperation(document: OpenApiDocument, id: string): Operation | undefined {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) if (item[method]?.operationId === id) return item[method];
  }
  return undefined;
}

function lookup(table: Record<string, Record<string, OperationSpec>>, name: string): OperationSpec | undefined {
  const [namespace, method] = name.split('.');
  return table[namespace!]?.[method!];
}

/** Follows a local `$ref` (`#/components/schemas/Task`). */
function resolve<T extends { $ref?: string }>(document: OpenApiDocument, value: T): T {
  if (!value.$ref) return value;
  const target = value.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], document);
  if (!target) throw new Error(`${value.$ref}: not in the document`);
  return resolve(document, target as T);
}

// `npm run generate -- <URL or file of the document>` writes the files beside the client's sources.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const source = process.argv[2] ?? 'http://localhost:3000/v1/public/openapi.json';
  const text = /^https?:/.test(source) ? await (await fetch(source)).text() : await fs.readFile(source, 'utf8');
  const files = await generate(JSON.parse(text) as OpenApiDocument);
  for (const [name, content] of Object.entries(files)) {
    await fs.writeFile(new URL(`../src/generated/${name}`, import.meta.url), content);
  }
}
