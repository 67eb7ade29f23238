/** The web page (web/): its files from memory (web.ts), at `/` and `/<name>`, left out of the OpenAPI document. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { webFiles } from '../web.ts';

export const webRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [path, file] of webFiles()) {
    app.get(path, { schema: { hide: true } }, async (_req, reply) => reply.type(file.type).header('cache-control', 'no-cache').send(file.body));
  }
};
