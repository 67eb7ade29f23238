/**
 * server/api-types.ts: the OpenAPI document's TypeScript types, as openapi-typescript makes
 * them, which is what a client developer's generation gives too (docs/http-api.md). The
 * client test (server/api-client.test.ts) types its calls with them, so `tsc` checks that the
 * document describes what a client sends and reads. `npm run docs:api-types` writes the file;
 * server/openapi.test.ts fails when it differs from what the document makes.
 */
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildServer } from './app.ts';

export const API_TYPES_FILE = new URL('./api-types.ts', import.meta.url);

const HEADER = `/**
 * The OpenAPI document's types (/docs/json), made by openapi-typescript: npm run docs:api-types.
 * Do not edit; server/openapi-types.ts explains.
 */

`;

/** The document a server with the default configuration serves at /docs/json. */
export async function openApiDocument(): Promise<OpenAPI3> {
  const app = await buildServer({ rateLimit: 0 });
  try {
    await app.ready();
    return JSON.parse(JSON.stringify(app.swagger())) as OpenAPI3;
  } finally {
    await app.close();
  }
}

/** api-types.ts's text for a document. */
export async function apiTypesText(doc: OpenAPI3): Promise<string> {
  // openapi-typescript may annotate what it is given: it gets a copy.
  return HEADER + astToString(await openapiTS(structuredClone(doc)));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(API_TYPES_FILE, await apiTypesText(await openApiDocument()));
}
