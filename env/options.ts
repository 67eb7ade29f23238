/**
 * Option declarations: the one place a command's, or the trainer's, options are declared (name,
 * type, range, default, one-line help), and the check of a typed value against its
 * declaration. The command line (cli/options.ts) parses text into these values and makes
 * --help from them; the trainer (training/options.ts) takes its option type, defaults and
 * range check from its declaration. It lives in env/, the lowest layer, because both read it;
 * it is plain data and checks, no I/O.
 */
import type { Ruleset } from './ruleset.ts';

/** What ranges may depend on: the ruleset in use. */
export interface Context {
  ruleset: Ruleset;
}

export type Bound = number | ((ctx: Context) => number);

interface Base {
  /** One line for --help. */
  help: string;
  /** The value's placeholder in --help (N, FILE, DIR ...). */
  arg?: string;
  /** Options that may not be given together with this one. */
  conflicts?: readonly string[];
  /** Why, for the error: `--resume ${why}; drop --seed`. Without it: `--a and --b cannot be given together`. */
  conflictWhy?: string;
  /** Must be given (no default makes sense). */
  required?: boolean;
  /** The default as --help shows it, when it is not a plain value (e.g. "the number of agents"). */
  defaultText?: string;
  /** Older spellings still read as this option (`--envs` for `--num-envs`). */
  aliases?: readonly string[];
}

export type OptionSpec =
  | (Base & { type: 'flag' })
  | (Base & { type: 'int'; min: Bound; max: Bound; default?: number })
  | (Base & { type: 'ints'; min: number; max: number; default?: readonly number[] })
  | (Base & { type: 'number'; min: number; max: number; above?: boolean; default?: number })
  | (Base & { type: 'string'; default?: string })
  | (Base & { type: 'choice'; choices: readonly string[]; default?: string })
  | (Base & { type: 'list'; default?: readonly string[] })
  | (Base & { type: 'file' })
  | (Base & { type: 'folder'; default?: string })
  | (Base & { type: 'ruleset'; default?: Ruleset });

export type OptionSpecs = Record<string, OptionSpec>;

export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  /** As typed after `czech-pub`: `play`, `bench env`. */
  name: string;
  /** What the command does, a few lines for --help. */
  description: string;
  options: O;
  /** The synopsis after the name; made from the options when absent. */
  synopsis?: string;
  /** Text after the options in --help (e.g. the known agents), made when asked. */
  footer?: () => string;
}

export type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

type ValueOf<S extends OptionSpec> = S extends { type: 'flag' }
  ? boolean
  : S extends { type: 'int' | 'number' }
    ? number
    : S extends { type: 'ints' }
      ? number[]
      : S extends { type: 'choice'; choices: readonly (infer C)[] }
        ? C
        : S extends { type: 'list' }
          ? string[]
          : S extends { type: 'ruleset' }
            ? Ruleset
            : string;

type HasValue<S> = S extends { type: 'flag' } | { default: unknown } | { required: true } ? true : false;

/** The parsed values, keyed by camelCase name; options without a default may be undefined. */
export type Values<O extends OptionSpecs> = {
  -readonly [K in keyof O & string as Camel<K>]: HasValue<O[K]> extends true ? ValueOf<O[K]> : ValueOf<O[K]> | undefined;
};

export interface Parsed<O extends OptionSpecs> {
  values: Values<O>;
  /** The options given on the command line (kebab-case names), as opposed to defaulted. */
  given: ReadonlySet<string>;
  /** The ruleset in use: --ruleset's, else the default. */
  ruleset: Ruleset;
}

export const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
export const bound = (b: Bound, ctx: Context) => (typeof b === 'function' ? b(ctx) : b);

/** The player counts of the ruleset in use: for `players` options. */
export const PLAYERS_MIN = (ctx: Context) => ctx.ruleset.players.min;
export const PLAYERS_MAX = (ctx: Context) => ctx.ruleset.players.max;

// ---- the range check, on typed values ----

const shownValue = (v: unknown) => (Array.isArray(v) ? v.join(',') : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * What is wrong with `v` as the value of option `name`, as the one-line message every
 * caller gives (`--lr must be a number greater than 0 and at most 1, got '0'`), or null.
 * `shown` is the value as the user wrote it (the command line's text).
 */
export function optionProblem(name: string, o: OptionSpec, v: unknown, ctx: Context, shown = shownValue(v)): string | null {
  const must = (want: string) => `--${name} must be ${want}, got '${shown}'`;
  switch (o.type) {
    case 'flag':
      return typeof v === 'boolean' ? null : must('true or false');
    case 'int':
    case 'number': {
      const lo = bound(o.min, ctx);
      const hi = bound(o.max, ctx);
      const ok = typeof v === 'number' && Number.isFinite(v) && (o.type === 'number' || Number.isInteger(v)) && (o.type === 'number' && o.above ? v > lo : v >= lo) && v <= hi;
      if (ok) return null;
      if (o.type === 'int') return must(`a whole number from ${lo} to ${hi}`);
      return must(o.above ? `a number greater than ${lo} and at most ${hi}` : `a number from ${lo} to ${hi}`);
    }
    case 'ints': {
      const ok = Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x) && x >= o.min && x <= o.max);
      return ok ? null : must(`comma-separated whole numbers from ${o.min} to ${o.max}`);
    }
    case 'choice':
      return typeof v === 'string' && o.choices.includes(v) ? null : must(`one of ${o.choices.join(', ')}`);
    case 'list':
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return must('a comma-separated list');
      return v.length > 0 && v.every((x) => x.trim() !== '') ? null : `--${name} has an empty entry: '${shown}'`;
    case 'string':
    case 'folder':
    case 'file': {
      if (typeof v !== 'string') return must('text');
      if (v.trim() !== '' || ('default' in o && o.default === '')) return null;
      return o.type === 'string' ? `--${name} must not be empty` : `--${name} must name a ${o.type}`;
    }
    case 'ruleset':
      return v !== null && typeof v === 'object' ? null : must('a ruleset');
  }
}

/** The declared defaults, keyed by camelCase name (arrays copied); a flag's is false. */
export function optionDefaults<O extends OptionSpecs>(options: O): Values<O> {
  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(options)) {
    values[camel(name)] = o.type === 'flag' ? false : 'default' in o ? (Array.isArray(o.default) ? [...o.default] : o.default) : undefined;
  }
  return values as Values<O>;
}

/** Checks values made in code against the declaration: the first bad one is a RangeError with the command line's message. */
export function checkOptions<O extends OptionSpecs>(options: O, values: Values<O>, ctx: Context): void {
  for (const [name, o] of Object.entries(options)) {
    const problem = optionProblem(name, o, (values as Record<string, unknown>)[camel(name)], ctx);
    if (problem) throw new RangeError(problem);
  }
}
