import fs from 'node:fs/promises';
import { generate, type OpenApiDocument } from '../../client/scripts/generate';

/**
 * The folder of the official client's generated files: the types openapi-typescript
 * makes of the served document (which the openapi-fetch scenario uses too) and the
 * client's table of operations.
 */
export const GENERATED = new URL('../../client/src/generated/', import.meta.url);

// `npm run contract:types` writes them from the server's own document (in client/, `npm run generate` from a served one).
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { openApiDocument } = await import('../../server/api/openapi');
  for (const [name, content] of Object.entries(await generate(openApiDocument() as unknown as OpenApiDocument))) {
    await fs.writeFile(new URL(name, GENERATED), content);
  }
}
