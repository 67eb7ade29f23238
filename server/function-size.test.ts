/**
 * No function of server/ is longer than MAX_LINES: a builder, a route plugin, a handler or a
 * store method that grows past it is two (buildServer, once one function holding every route,
 * now assembles the plugins of routes/). Every function-like node counts (declarations,
 * methods, accessors, constructors, function expressions and arrows, nested ones too) from its
 * first line to its last; test files are left out, whose describe blocks are lists of cases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 120;
const SERVER = fileURLToPath(new URL('.', import.meta.url));

interface Measured {
  /** `file:line` of its first line, the file relative to server/. */
  where: string;
  name: string;
  lines: number;
}

/** A function's name as a reader finds it: its own, the variable or property it is assigned to, else how it is used. */
function nameOf(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `(a callback of ${parent.expression.getText(file).slice(0, 60)})`;
  return '(anonymous)';
}

/** Every function with a body in one file's text, with its length in lines. */
function measure(fileName: string, text: string): Measured[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${fileName}:${first + 1}`, name: nameOf(node, file), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** server/'s source files, its subfolders' included, tests left out; paths relative to server/. */
function sources(): string[] {
  return (fs.readdirSync(SERVER, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
}

describe('function size in server/', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    const files = sources();
    expect(files).toContain('app.ts');
    expect(files.some((f) => f.startsWith('routes/'))).toBe(true);
    const all = files.flatMap((f) => measure(f, fs.readFileSync(path.join(SERVER, f), 'utf8')));
    expect(all.find((m) => m.name === 'buildServer')).toBeDefined();
    const long = all.filter((m) => m.lines > MAX_LINES).map((m) => `${m.where} ${m.name}: ${m.lines} lines`);
    expect(long, `functions over ${MAX_LINES} lines: split them`).toEqual([]);
  });

  it('measures declarations, methods, arrows and callbacks, nested ones too, first line to last', () => {
    const text = [
      'export async function build() {', // 1
      '  app.get("/x", async () => {', // 2
      '    return 1;', // 3
      '  });', // 4
      '}', // 5
      'class Store {', // 6
      '  get size() { return 0; }', // 7
      '  act(a: number) {', // 8
      '    const twice = (b: number) =>', // 9
      '      b * 2;', // 10
      '    return twice(a);', // 11
      '  }', // 12
      '}', // 13
      'declare function bodiless(): void;', // 14
    ].join('\n');
    expect(measure('x.ts', text).map(({ where, name, lines }) => `${where} ${name} ${lines}`)).toEqual([
      'x.ts:1 build 5',
      'x.ts:2 (a callback of app.get) 3',
      'x.ts:7 size 1',
      'x.ts:8 act 5',
      'x.ts:9 twice 2',
    ]);
  });
});
