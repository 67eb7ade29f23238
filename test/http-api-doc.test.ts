/**
 * docs/http-api.md names every field a client reads from GET view and POST actions: those of
 * the answer as server/schemas.ts declares it (`seatState`, its nested objects too), and those
 * of the seat's view, every property of the interfaces env/observation/view.ts declares (read
 * from the source with TypeScript's parser, optional ones included), in backticks in the
 * section "What GET view and POST actions answer". A field added to either fails here until
 * the doc names it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seatState } from '../server/schemas.ts';
import { codeBlocks } from './helpers/doc-blocks.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = fs.readFileSync(path.join(ROOT, 'docs/http-api.md'), 'utf8');
/** The interfaces of a seat's view. */
const VIEW_TYPES = ['PlayerView', 'DecisionView', 'TurnView', 'PlayerPublicView', 'FrontCardView'];

/** The section that names the fields: from its heading to the next heading of level 2. */
function fieldSection(doc: string): string {
  const start = doc.indexOf('### What GET view and POST actions answer');
  if (start < 0) throw new Error('docs/http-api.md has no section "What GET view and POST actions answer"');
  const end = doc.indexOf('\n## ', start);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** Every key of a zod schema's objects, nested ones by their dotted path. */
function schemaFields(schema: z.ZodType, at = ''): string[] {
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return schemaFields(schema.unwrap() as z.ZodType, at);
  if (schema instanceof z.ZodArray) return schemaFields(schema.element as z.ZodType, at);
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, s]) => [`${at}${key}`, ...schemaFields(s, `${at}${key}.`)]);
}

/** Every property of the named interfaces in a TypeScript file, those of object types written inline too, as `Interface.path`. */
function interfaceFields(file: string, names: readonly string[]): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const members = (list: ts.NodeArray<ts.TypeElement>, at: string) => {
    for (const m of list) {
      if (!ts.isPropertySignature(m) || !m.name) continue;
      const key = `${at}${m.name.getText(source)}`;
      out.push(key);
      let type = m.type;
      while (type && (ts.isArrayTypeNode(type) || ts.isParenthesizedTypeNode(type))) type = ts.isArrayTypeNode(type) ? type.elementType : type.type;
      if (type && ts.isTypeLiteralNode(type)) members(type.members, `${key}.`);
    }
  };
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && names.includes(node.name.text)) members(node.members, `${node.name.text}.`);
  });
  return out;
}

const section = fieldSection(DOC);
const named = (field: string) => section.includes(`\`${field.split('.').pop()}\``);

describe('docs/http-api.md', () => {
  it('reads the fields from both schemas', () => {
    const answer = schemaFields(seatState);
    expect(answer).toEqual(expect.arrayContaining(['yourTurn', 'done', 'scores', 'legalActions.note', 'seed.commitment', 'lastAction.name', 'events.k']));
    const view = interfaceFields(path.join(ROOT, 'env/observation/view.ts'), VIEW_TYPES);
    expect(view).toEqual(expect.arrayContaining(['PlayerView.closingTime.depth', 'PlayerView.titlesLeft.left', 'TurnView.blocked.small_beer', 'FrontCardView.placedBy', 'DecisionView.avoided']));
    expect(new Set(view.map((f) => f.split('.')[0]))).toEqual(new Set(VIEW_TYPES));
  });

  it('names every field of the answer to GET view and POST actions (server/schemas.ts seatState)', () => {
    expect(schemaFields(seatState).filter((f) => !named(f))).toEqual([]);
  });

  it("names every field of the seat's view (env/observation/view.ts)", () => {
    expect(interfaceFields(path.join(ROOT, 'env/observation/view.ts'), VIEW_TYPES).filter((f) => !named(f))).toEqual([]);
  });

  it('opens with a game over plain HTTP, run by test/doc-examples.test.ts', () => {
    const walk = DOC.slice(DOC.indexOf('## A game over plain HTTP'), DOC.indexOf('### What GET view'));
    const blocks = codeBlocks(walk).filter((b) => b.runnable?.includes('server'));
    // curl in a shell, then a whole game in a language's standard HTTP client.
    expect(blocks.map((b) => b.lang)[0]).toBe('sh');
    expect(blocks[0].code).toMatch(/^curl .*\/v1\/games /m);
    expect(blocks[1].code).toContain('urllib.request');
    expect(walk).toContain('once the bots have moved');
  });
});
