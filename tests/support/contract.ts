import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../server/api/openapi';

/**
 * Holds every answer the API tests receive to the OpenAPI document the server
 * serves: the status must be declared for the operation, the body must match the
 * declared schema, and an error with a fixed message must carry one the document
 * lists. So the document cannot drift from the server again.
 */
type Operation = {
  responses: Record<string, { content?: Record<string, { schema: unknown; examples?: Record<string, { value: { message: string } }> }> }>;
};

interface Contract {
  document: { paths: Record<string, Record<string, Operation>> };
  ajv: Ajv2020;
  templates: { template: string; pattern: RegExp }[];
  validators: Map<string, ReturnType<Ajv2020['compile']>>;
}

let loaded: Contract | undefined;

/** Built on first use: test files set the configuration the document reflects before they call the API. */
function contract(): Contract {
  if (loaded) return loaded;
  const document = openApiDocument() as unknown as Contract['document'];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document as object, 'openapi.json');
  // A fixed segment wins over a parameter, as on the server: `/attachments/uploads` before `/attachments/{attachmentId}`.
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
      params: template.split('{').length - 1,
    }))
    .sort((a, b) => a.params - b.params);
  loaded = { document, ajv, templates, validators: new Map() };
  return loaded;
}

function pointer(...parts: string[]): string {
  return parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** Throws when an answer to `method path` (below /v1/public, query included) is not what the document promises. */
export function checkAgainstDocument(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  const { document, ajv, templates, validators } = contract();
  const pathname = path.split('?')[0]!;
  const found = templates.find(({ pattern }) => pattern.test(pathname));
  const operation = found && document.paths[found.template]![method.toLowerCase()];
  // Not an operation of the document: 404 for an unknown path, 405 for another method.
  if (!found || !operation) return;
  const where = `${method} ${found.template} answered ${status}`;
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${where}, which the OpenAPI document does not declare`);
  const json = response.content?.['application/json'];
  if (!json) return;
  if (!contentType?.includes('application/json')) throw new Error(`${where} with ${contentType ?? 'no body'}, not JSON`);
  const key = `${found.template} ${method} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = `openapi.json#/${pointer('paths', found.template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
    validate = ajv.compile({ $ref: ref });
    validators.set(key, validate);
  }
  if (!validate(body)) throw new Error(`${where} with a body the document does not describe: ${ajv.errorsText(validate.errors)}`);
  const listed = Object.values(json.examples ?? {}).map(({ value }) => value.message);
  // Validation messages name the field and the rule; the rest are fixed, with placeholders for names and ids.
  if (status !== 400 && listed.length > 0) {
    const message = (body as { message: string }).message;
    const matches = listed.some((text) =>
      new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/<[a-z]+>/g, '.+')}$`).test(message),
    );
    if (!matches) throw new Error(`${where} with the message "${message}", which the document does not list: ${listed.join(' | ')}`);
  }
}
