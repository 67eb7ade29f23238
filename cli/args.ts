/**
 * Command-line parsing on top of Node's util.parseArgs, with its errors turned into
 * UsageErrors that name the problem, and typed checks for numeric values.
 */
import { statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `--seconds -1` would make parseArgs complain about an "ambiguous" argument; joining it
 * into `--seconds=-1` lets the value check say what is wrong with it instead.
 */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = a.startsWith('--') ? a.slice(2) : '';
    const next = args[i + 1];
    if (options[name]?.type === 'string' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

function cleanMessage(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const msg = String(err.message ?? e);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option '${msg.match(/'([^']+)'/)?.[1] ?? msg}'`;
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument '${msg.match(/'([^']+)'/)?.[1] ?? msg}'`;
  return msg.split('\n')[0].replace(/^Option/, 'option');
}

/** Parses `args` against `options` (strict); positionals are allowed only if `positionals` is set. */
export function parseCommand<T extends Options>(
  args: readonly string[],
  options: T,
  positionals = false,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({ args: joinNegativeValues(args, options), options, strict: true, allowPositionals: positionals });
    return { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (e) {
    throw new UsageError(cleanMessage(e));
  }
}

/** An integer option within [min, max], or `fallback` when absent. */
export function intOption(values: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isInteger(v) || v < min || v > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got '${String(raw)}'`);
  }
  return v;
}

/** An option that must be one of `choices`, or `fallback` when absent. */
export function choiceOption<T extends string>(values: Record<string, unknown>, name: string, choices: readonly T[], fallback: T): T {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got '${String(raw)}'`);
  return raw as T;
}

/** A number option in (0, max], or `fallback` when absent. */
export function positiveOption(values: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(v) || v <= 0 || v > max) {
    throw new UsageError(`--${name} must be a number greater than 0 and at most ${max}, got '${String(raw)}'`);
  }
  return v;
}

/** A folder option (--out): absent, or a path that is not an existing file (the folder is made when results are written). */
export function outDirOption(values: Record<string, unknown>, name = 'out'): string | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.trim() === '') throw new UsageError(`--${name} must name a folder`);
  let isFile = false;
  try {
    isFile = !statSync(raw).isDirectory();
  } catch {
    // not there yet: made when the results are written
  }
  if (isFile) throw new UsageError(`--${name} ${raw} is a file, not a folder; name a folder for the results`);
  return raw;
}
