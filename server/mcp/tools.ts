import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { idempotencyKeyArgument, uploadInlineInput } from '../api/inputs';
import { procedureMetas } from '../api/operation';
import { publicRouter } from '../api/router';
import { AUDIT_READ, WEBHOOK_MANAGE, type Scope } from '../keys/scopes';
import { MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { routerProcedureSchemas } from '../vendor/trpc-router-procedures';

/** One operation of the public API as an MCP tool. */
export interface ApiTool {
  /** What `tools/list` shows. */
  tool: Tool;
  /** The procedure's path in the router, e.g. `tasks.create`. */
  procedure: string;
  /** Null: every key and app may call it (its own requests). */
  scope: Scope | null;
  /** For an operation that answers a JSON array: the name its structured result holds it under. */
  listKey?: string;
  /** The call carries its file as data (base64) instead of a multipart body. */
  inlineFile: boolean;
  /** The REST request the call stands for: a write (POST, PATCH) takes an `idempotencyKey` argument. */
  rest: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; successStatus: number; write: boolean };
}

const IDEMPOTENCY_KEY = 'idempotencyKey';

// The REST API takes this operation's file as multipart/form-data; the tool, as base64 with the call.
const UPLOAD_PROCEDURE = 'attachments.upload';
const ARTICLES = new Set(['a', 'an', 'the']);
const INLINE_UPLOAD_DETAIL =
  `Send the file's bytes base64-encoded in \`content\` with its \`filename\` (and \`mimeType\` if the extension does not tell it); ` +
  `at most ${MAX_UPLOAD_BYTES} bytes (10 MB) once decoded. Answers the attachment with a download \`url\` valid for one hour.`;

function buildTools(): ApiTool[] {
  const schemas = routerProcedureSchemas(publicRouter);
  // The workspace's audit log is for the people who run it and their tools (REST, the export),
  // not for an agent doing a project's work: it is no tool, and neither is managing webhooks,
  // which integration platforms do over REST. The request log is, so that an agent can see
  // why its own call failed.
  const toolOperations = [...procedureMetas(publicRouter)].filter(([, meta]) => meta.scope !== AUDIT_READ && meta.scope !== WEBHOOK_MANAGE);
  return toolOperations.map(([procedure, meta]) => {
    const { inputs, output } = schemas.get(procedure) ?? { inputs: [], output: undefined };
    if (!meta.openapi || meta.scope === undefined || inputs.length !== 1 || !output) {
      throw new Error(`Public procedure ${procedure} has no OpenAPI path, scope, single input or output`);
    }
    const inlineFile = procedure === UPLOAD_PROCEDURE;
    const name = toolName(meta.openapi.summary ?? procedure);
    const outputSchema = jsonSchema(output as z.ZodType, 'output');
    const listKey = outputSchema.type === 'array' ? procedure.split('.')[0] : undefined;
    const method = meta.openapi.method as ApiTool['rest']['method'];
    const write = method === 'POST' || method === 'PATCH';
    const inputSchema = asObjectSchema(jsonSchema((inlineFile ? uploadInlineInput : inputs[0]) as z.ZodType, 'input'));
    if (write) inputSchema.properties = { ...inputSchema.properties, [IDEMPOTENCY_KEY]: jsonSchema(idempotencyKeyArgument, 'input') };
    return {
      procedure,
      scope: meta.scope,
      listKey,
      inlineFile,
      rest: { method, path: meta.openapi.path, successStatus: meta.successStatus ?? 200, write },
      tool: {
        name,
        title: meta.openapi.summary,
        description: describe({
          summary: meta.openapi.summary ?? name,
          detail: inlineFile ? INLINE_UPLOAD_DETAIL : meta.openapi.description,
          scope: meta.scope,
          rest: `${method} /v1/public${meta.openapi.path}`,
          inputs: Object.keys(inputSchema.properties ?? {}),
          listKey,
          write,
        }),
        inputSchema,
        outputSchema: listKey
          ? { type: 'object', properties: { [listKey]: outputSchema }, required: [listKey], additionalProperties: false }
          : asObjectSchema(outputSchema),
        annotations: {
          title: meta.openapi.summary,
          readOnlyHint: method === 'GET',
          destructiveHint: method === 'DELETE',
          idempotentHint: method !== 'POST',
          openWorldHint: false,
        },
      },
    };
  });
}

// What the ids a tool takes mean and where an agent finds them.
const ID_HINTS: Record<string, string> = {
  projectSlug: 'projectSlug names the project (e.g. `web`).',
  taskId: "taskId is the task's UUID or its external ID such as `WEB-12`.",
  statusId: 'statusId comes from list_statuses.',
  assigneeIds: 'assigneeIds are user ids from list_members.',
  labelIds: 'labelIds come from list_labels.',
  attachmentId: "attachmentId is an id from the task's `attachments`.",
};

function describe(parts: {
  summary: string;
  detail?: string;
  scope: Scope | null;
  rest: string;
  inputs: string[];
  listKey?: string;
  write: boolean;
}): string {
  return [
    `${parts.summary}.`,
    parts.detail,
    ...parts.inputs.map((input) => ID_HINTS[input]),
    parts.listKey ? `The structured result holds the list under \`${parts.listKey}\`; the text is the REST API's JSON array.` : undefined,
    parts.write ? 'Safe to retry with the same `idempotencyKey`: the change is made once.' : undefined,
    parts.scope
      ? `Needs the API key scope ${parts.scope}; same as the REST call ${parts.rest}.`
      : `Needs no scope; same as the REST call ${parts.rest}.`,
    'Failures come back as a tool error whose text is `<statusCode> <message>`, e.g. `404 Task not found`.',
  ]
    .filter(Boolean)
    .join(' ');
}

/** `Upload an attachment` → `upload_attachment`. */
function toolName(summary: string): string {
  return summary
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word && !ARTICLES.has(word))
    .join('_');
}

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema, self-contained: named schemas (`Task`, `Priority`)
 * are written in place rather than referenced, and no `$schema` is given, since
 * MCP clients validate with whatever JSON Schema dialect their library defaults to.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const {
    $defs = {},
    $schema: _dialect,
    ...root
  } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  return inlineRefs(root, $defs) as JsonSchema;
}

function inlineRefs(node: unknown, defs: Record<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, defs));
  if (typeof node !== 'object' || node === null) return node;
  const { $ref, ...rest } = node as JsonSchema;
  const resolved: JsonSchema = {};
  if (typeof $ref === 'string') Object.assign(resolved, inlineRefs(defs[$ref.replace('#/$defs/', '')], defs));
  for (const [key, value] of Object.entries(rest)) resolved[key] = inlineRefs(value, defs);
  return resolved;
}

function asObjectSchema(schema: JsonSchema): Tool['inputSchema'] {
  if (schema.type !== 'object') throw new Error(`Tool schemas must describe objects, not ${String(schema.type)}`);
  return schema as Tool['inputSchema'];
}

/**
 * The tools, generated from the public router: one per procedure, named after its
 * summary (`Get a task` is `get_task`), gated by its scope, with the JSON Schemas
 * of the zod schemas the procedure validates its input and output with.
 */
export const API_TOOLS: readonly ApiTool[] = buildTools();

export const TOOLS_BY_NAME = new Map(API_TOOLS.map((entry) => [entry.tool.name, entry]));
