/**
 * The OpenAPI document (/docs/json) is made for client generators: every operation has a
 * unique camelCase operationId (what a generator names its method), a one-line summary, a
 * tag and its security, and documents its errors with the one named Error shape; Redocly's
 * recommended rules find nothing in it; and server/api-types.ts is what openapi-typescript
 * makes of it. A route added without these fails here.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OpenAPI3 } from 'openapi-typescript';
import { buildServer } from './app.ts';
import { API_TYPES_FILE, apiTypesText } from './openapi-types.ts';

/** The document as a server with the default configuration serves it. */
async function served(): Promise<OpenAPI3> {
  const app = await buildServer({ rateLimit: 0 });
  try {
    return (await app.inject({ url: '/docs/json' })).json();
  } finally {
    await app.close();
  }
}

const document = await served();
const doc = document as unknown as Doc;

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Doc {
  servers?: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));

describe('the OpenAPI document', () => {
  it('gives every operation a unique camelCase operationId, a one-line summary, a tag and its security', () => {
    expect(operations.length).toBeGreaterThanOrEqual(18);
    const tags = doc.tags.map((t) => t.name);
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const { where, op } of operations) {
      expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(op.summary, where).toMatch(/^[^\n]{10,100}$/);
      expect(op.tags?.length, where).toBe(1);
      expect(tags, where).toContain(op.tags![0]);
      // [] where anyone may call; otherwise schemes the document defines.
      expect(Array.isArray(op.security), `${where}: security`).toBe(true);
      for (const s of op.security!) for (const name of Object.keys(s)) expect(schemes, where).toContain(name);
    }
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // A token opens a game's reads and moves: those routes say so.
    for (const { where, op } of operations) {
      if (/^(GET|POST) \/v1\/games\/\{id\}\/(view|actions|events|stream|preview|replay)/.test(where)) expect(op.security, where).toEqual([{ seatToken: [] }]);
    }
  });

  it('documents every operation\'s errors, each in the one Error shape named in components', () => {
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    for (const { where, op } of operations) {
      const errors = Object.keys(op.responses).filter((code) => Number(code) >= 400);
      expect(errors, where).toContain('421');
      for (const code of errors) expect(op.responses[code].content, `${where} ${code}`).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
    }
  });

  it('names the server as where the document is served', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it("passes Redocly's recommended rules without an error or a warning", async () => {
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const said = (severity: string) => problems.filter((p) => p.severity === severity).map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`);
    expect(said('error')).toEqual([]);
    expect(said('warn')).toEqual([]);
  });

  it('is what server/api-types.ts was made from (npm run docs:api-types)', async () => {
    expect(fs.readFileSync(API_TYPES_FILE, 'utf8'), 'server/api-types.ts is out of date: npm run docs:api-types').toBe(await apiTypesText(document));
  });
});
