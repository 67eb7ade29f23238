/**
 * Each command's options, declared once (as CleanRL's one `Args` class): name, type,
 * default, range or choices and a one-line help. From the declaration come the --help text,
 * the parse (node:util parseArgs underneath, strict) and the checks, which return typed
 * values: numbers as numbers, lists as arrays, `--ruleset RULES` as a parsed Ruleset.
 *
 * | type    | value            | checks                                                      |
 * |---------|------------------|-------------------------------------------------------------|
 * | flag    | boolean          | takes no value                                              |
 * | int     | number           | a whole number in [min, max]                                |
 * | ints    | number[]         | comma-separated whole numbers, each in [min, max]           |
 * | number  | number           | a finite number in [min, max] (or above min with `above`)   |
 * | string  | string           | not empty (unless the default is '': none)                  |
 * | choice  | one of `choices` |                                                             |
 * | list    | string[]         | comma-separated, no empty entry                             |
 * | file    | string           | an existing file                                            |
 * | folder  | string           | not an existing file (the folder is made when written)      |
 * | ruleset | Ruleset          | a shipped ruleset's name (micro, standard) or a JSON file that env/ruleset.ts parseRuleset accepts |
 *
 * Ranges that come from the game (player counts) are functions of the ruleset in use: the
 * one `--ruleset` names, else the default. Options that cannot go together name each other
 * in `conflicts`; giving both is a usage error. An option may keep an old spelling in
 * `aliases`; an alias is read as the option, and every message names the option.
 *
 * The range check (`optionProblem`) is one function on typed values: the command line's
 * text is converted, then checked by it; `checkOptions` runs it on values made in code
 * (the trainer's options), so both refuse a bad value with the same message.
 */
import fs from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  bound, camel, DEFAULT_RULESET, NAMED_RULESETS, optionDefaults, optionProblem, parseRuleset, type CommandSpec, type Context, type OptionSpec,
  type OptionSpecs, type Parsed, type Ruleset, type Values,
} from '../env/index.ts';

// The declarations live in env/options.ts; re-exported so a command imports its options from here alone.
export {
  bound, camel, checkOptions, optionDefaults, optionProblem, PLAYERS_MAX, PLAYERS_MIN, type Bound, type Camel, type CommandSpec, type Context,
  type OptionSpec, type OptionSpecs, type Parsed, type Values,
} from '../env/index.ts';
import { UsageError } from './io.ts';

/** A shipped ruleset by name (`micro`, `standard`: env/ruleset.ts NAMED_RULESETS), else a ruleset file read and checked; every problem is one line naming the file (and the bad field). */
export function readRulesetFile(file: string, option = '--ruleset'): Ruleset {
  if (Object.hasOwn(NAMED_RULESETS, file)) return NAMED_RULESETS[file];
  let text: string;
  try {
    if (!fs.statSync(file).isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${option} ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${option} ${file} is not JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    return parseRuleset(raw);
  } catch (e) {
    throw new UsageError(`${option} ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** The ruleset a command plays when none is named: its ruleset option's default, else the standard rules. */
function defaultRuleset(cmd: CommandSpec): Ruleset {
  for (const o of Object.values(cmd.options)) if (o.type === 'ruleset' && o.default) return o.default;
  return DEFAULT_RULESET;
}

// ---- help text ----

function placeholder(name: string, o: OptionSpec): string {
  if (o.type === 'flag') return '';
  return o.arg ?? (o.type === 'list' || o.type === 'ints' ? 'A,B' : o.type === 'file' ? 'FILE' : o.type === 'ruleset' ? 'RULES' : o.type === 'folder' ? 'DIR' : 'X');
}

function defaultShown(o: OptionSpec): string | undefined {
  if (o.defaultText !== undefined) return o.defaultText;
  if (!('default' in o) || o.default === undefined) return undefined;
  if (o.type === 'ruleset') return Object.keys(NAMED_RULESETS).find((k) => NAMED_RULESETS[k] === o.default) ?? o.default!.name;
  return Array.isArray(o.default) ? o.default.join(',') : String(o.default);
}

function describe(o: OptionSpec, ctx: Context): string {
  const notes: string[] = [];
  if (o.type === 'int' || o.type === 'number') {
    const lo = bound(o.min, ctx);
    const hi = bound(o.max, ctx);
    const fromRuleset = typeof o.min === 'function' || typeof o.max === 'function';
    notes.push(o.type === 'number' && o.above ? `more than ${lo}, at most ${hi}` : `${lo}-${hi}${fromRuleset ? ' by the ruleset' : ''}`);
  }
  if (o.type === 'ints') notes.push(`each ${o.min}-${o.max}`);
  if (o.type === 'choice') notes.push(o.choices.join(', '));
  const d = defaultShown(o);
  if (d !== undefined) notes.push(`default ${d}`);
  if (o.aliases?.length) notes.push(`also ${o.aliases.map((a) => `--${a}`).join(', ')}`);
  return notes.length ? `${o.help} (${notes.join('; ')})` : o.help;
}

export function helpText(cmd: CommandSpec, ctx: Context = { ruleset: defaultRuleset(cmd) }): string {
  const rows = Object.entries(cmd.options).map(([name, o]) => [`--${name}${placeholder(name, o) ? ` ${placeholder(name, o)}` : ''}`, describe(o, ctx)]);
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  const synopsis = cmd.synopsis ?? '[options]';
  return [
    `Usage: czech-pub ${cmd.name} ${synopsis}`,
    '',
    cmd.description,
    '',
    'Options:',
    ...rows.map(([l, r]) => `  ${l.padEnd(width)}${r}`),
    ...(cmd.footer ? ['', cmd.footer()] : []),
  ].join('\n');
}

// ---- parsing ----

/** Each name an option may be given by (its own and its aliases) → its own. */
function spellings(options: OptionSpecs): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, o] of Object.entries(options)) for (const n of [name, ...(o.aliases ?? [])]) names.set(n, name);
  return names;
}

/** `--seconds -1` would be "ambiguous" to parseArgs; as `--seconds=-1` the range check names the problem. */
function joinNegativeValues(args: readonly string[], options: OptionSpecs): string[] {
  const names = spellings(options);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = names.get(a.startsWith('--') ? a.slice(2) : '');
    const o = name !== undefined ? options[name] : undefined;
    const next = args[i + 1];
    if (o && o.type !== 'flag' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

function parseError(e: unknown): UsageError {
  const err = e as { code?: string; message?: string };
  const msg = String(err.message ?? e);
  const quoted = msg.match(/'([^']+)'/)?.[1] ?? msg;
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown option '${quoted}'`);
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new UsageError(`unexpected argument '${quoted}'`);
  return new UsageError(msg.split('\n')[0].replace(/^Option/, 'option'));
}

/** The command line's text as the option's type: what the range check then judges. */
function fromText(o: OptionSpec, text: string): unknown {
  const num = (t: string) => (t.trim() === '' ? NaN : Number(t));
  if (o.type === 'int' || o.type === 'number') return num(text);
  if (o.type === 'ints') return text.split(',').map(num);
  if (o.type === 'list') return text.split(',').map((s) => s.trim());
  return text;
}

function checkValue(name: string, o: OptionSpec, raw: string | boolean, ctx: Context): unknown {
  if (o.type === 'flag') return raw === true;
  const text = String(raw);
  if (o.type === 'ruleset') return readRulesetFile(text, `--${name}`);
  const v = fromText(o, text);
  const problem = optionProblem(name, o, v, ctx, text);
  if (problem) throw new UsageError(problem);
  if (o.type === 'file') {
    let isFile = false;
    try {
      isFile = fs.statSync(text).isFile();
    } catch {
      throw new UsageError(`--${name} ${text}: no such file`);
    }
    if (!isFile) throw new UsageError(`--${name} ${text} is not a file`);
  }
  if (o.type === 'folder') {
    let isFile = false;
    try {
      isFile = !fs.statSync(text).isDirectory();
    } catch {
      // not there yet: made when the results are written
    }
    if (isFile) throw new UsageError(`--${name} ${text} is a file, not a folder; name a folder for the results`);
  }
  return v;
}

/**
 * The arguments that are not options (a command's FILE or DIR), apart from the options, which
 * parseOptions then reads: an option of `options` that takes a value keeps the next argument.
 */
export function splitPositionals(args: readonly string[], options: OptionSpecs): { files: string[]; options: string[] } {
  const files: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      files.push(a);
      continue;
    }
    rest.push(a);
    const name = a.slice(2);
    const takesValue = a.startsWith('--') && !a.includes('=') && Object.hasOwn(options, name) && options[name].type !== 'flag';
    if (takesValue && i + 1 < args.length) rest.push(args[++i]);
  }
  return { files, options: rest };
}

/**
 * Parses `args` against the command's declaration. Returns null when --help was asked for
 * (the caller prints `helpText`); every mistake is a UsageError naming it.
 */
export function parseOptions<O extends OptionSpecs>(cmd: CommandSpec<O>, args: readonly string[]): Parsed<O> | null {
  const config: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  const names = spellings(cmd.options);
  for (const [n, name] of names) config[n] = { type: cmd.options[name].type === 'flag' ? 'boolean' : 'string' };
  let raw: Record<string, string | boolean | undefined>;
  try {
    raw = parseArgs({ args: joinNegativeValues(args, cmd.options), options: config, strict: true, allowPositionals: false }).values as typeof raw;
  } catch (e) {
    throw parseError(e);
  }
  if (raw.help) return null;
  // An alias is read as its option.
  for (const [n, name] of names) {
    if (n === name || raw[n] === undefined) continue;
    if (raw[name] !== undefined) throw new UsageError(`--${n} is --${name}; give it once`);
    raw[name] = raw[n];
    delete raw[n];
  }
  const given = new Set(Object.keys(raw).filter((k) => k !== 'help' && raw[k] !== undefined));
  for (const [name, o] of Object.entries(cmd.options)) {
    if (o.required && !given.has(name)) throw new UsageError(`--${name} is required: ${o.help}`);
  }
  for (const name of given) {
    const o = cmd.options[name];
    for (const other of o.conflicts ?? []) {
      if (!given.has(other)) continue;
      throw new UsageError(o.conflictWhy ? `--${name} ${o.conflictWhy}; drop --${other}` : `--${name} and --${other} cannot be given together; choose one`);
    }
  }
  // The ruleset first: other ranges (player counts) come from it.
  let ruleset = defaultRuleset(cmd);
  const values: Record<string, unknown> = optionDefaults(cmd.options);
  for (const [name, o] of Object.entries(cmd.options)) {
    if (o.type === 'ruleset' && raw[name] !== undefined) ruleset = values[camel(name)] = checkValue(name, o, raw[name]!, { ruleset }) as Ruleset;
  }
  const ctx = { ruleset };
  for (const [name, o] of Object.entries(cmd.options)) {
    if (o.type !== 'ruleset' && raw[name] !== undefined) values[camel(name)] = checkValue(name, o, raw[name]!, ctx);
  }
  return { values: values as Values<O>, given, ruleset };
}
