import type { FastifyRequest } from 'fastify';

/** The token of `Authorization: Bearer <token>`, if sent. */
export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
}
