/**
 * The seat channel is the only door (env/observation/channel.ts). The modules through which
 * something reaches a seat, an onlooker, an outside bot or a model (the server, the bridge,
 * the agents' observation, the http and llm agents, the trainer's input) may not read a
 * game's state, its unfiltered log or a seat's view straight from an env, nor call what
 * builds a seat's facts: they go through SeatChannel. Checked with the type checker, so a
 * property read on anything typed CzechPubEnv or GameState is caught whatever the variable is
 * called; a deliberately leaking fixture (test/fixtures/leaky-exit.ts) must be caught too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The exits: folders (every non-test .ts file under them) and single files. */
const EXITS = ['server', 'bridge', 'agents/http', 'agents/llm', 'agents/observation.ts', 'agents/ppo/input.ts'];
const FIXTURE = 'test/fixtures/leaky-exit.ts';

/** What an exit may not ask an env for: the channel asks on its behalf. */
const ENV_MEMBERS = new Set(['state', 'fullLog', 'view', 'text', 'events', 'eventLog', 'encode', 'publicView', 'observe', 'resample', 'legalMask', 'toJSON']);
/** Builders of a viewer's facts and of hidden-state copies: the channel's own tools. */
const BUILDERS = new Set(['seatFacts', 'publicFacts', 'eventForSeat', 'makeView', 'makePublicView', 'viewOfFacts', 'viewOfPublicFacts', 'previewDigestion', 'previewChoice', 'factsState', 'resampleState', 'encodeObservation']);

function filesOf(entry: string): string[] {
  const p = path.join(ROOT, entry);
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs.readdirSync(p, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return filesOf(path.join(entry, e.name));
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path.join(p, e.name)] : [];
  });
}

function typeNames(t: ts.Type): string[] {
  const names = [t.getSymbol()?.getName(), t.aliasSymbol?.getName()];
  // Readonly<GameState> and the like: the type arguments name what is wrapped.
  for (const a of t.aliasTypeArguments ?? []) names.push(a.getSymbol()?.getName());
  if (t.isUnion() || t.isIntersection()) for (const u of t.types) names.push(...typeNames(u));
  return names.filter((n): n is string => n !== undefined);
}

/** Every way a file reaches past the channel, as `file:line: what`. */
function violations(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true, noEmit: true, strict: true, skipLibCheck: true, types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const file of files) {
    const sf = program.getSourceFile(file)!;
    const rel = path.relative(ROOT, file);
    const found: string[] = [];
    const at = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    const visit = (n: ts.Node) => {
      if (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
        const member = ts.isPropertyAccessExpression(n) ? n.name.text : n.argumentExpression.getText();
        const names = typeNames(checker.getTypeAtLocation(n.expression));
        if (names.includes('CzechPubEnv') && ENV_MEMBERS.has(member)) found.push(`${at(n)}: reads env.${member}`);
        if (names.includes('GameState')) found.push(`${at(n)}: reads a GameState (.${member})`);
      }
      if (ts.isImportSpecifier(n) && BUILDERS.has((n.propertyName ?? n.name).text)) found.push(`${at(n)}: imports ${(n.propertyName ?? n.name).text}`);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    out.set(rel, found);
  }
  return out;
}

describe('the seat channel is the only door', () => {
  const exits = EXITS.flatMap(filesOf);
  const found = violations([...exits, path.join(ROOT, FIXTURE)]);

  it('no exit reads a game on a viewer\'s behalf but through SeatChannel', () => {
    expect(exits.length).toBeGreaterThan(20);
    const all = exits.flatMap((f) => found.get(path.relative(ROOT, f)) ?? []);
    expect(all).toEqual([]);
  });

  it('catches a deliberately leaking exit, each way it leaks', () => {
    const leaks = found.get(FIXTURE)!.map((l) => l.replace(/^[^:]+:\d+: /, ''));
    expect(leaks).toEqual(expect.arrayContaining([
      'imports seatFacts', 'reads env.state', 'reads a GameState (.hand)', 'reads env.view', 'reads env.fullLog', 'reads a GameState (.rng)',
    ]));
  });
});
