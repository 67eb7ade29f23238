/**
 * The option blocks of docs/commands.md: every command's --help as its declaration (options.ts)
 * makes it, one fenced block each. cli/readme.test.ts checks docs/commands.md holds them;
 * `node --import tsx cli/readme-options.ts` prints them to paste.
 */
import { benchSpecs } from './bench.ts';
import { helpText, type CommandSpec } from './options.ts';
import { PLAY } from './play.ts';
import { REPLAY } from './replay.ts';
import { TOURNAMENT } from './tournament.ts';

async function specs(): Promise<CommandSpec[]> {
  const { TRAIN } = await import('./train.ts');
  const { LLM_BENCH } = await import('./llm-bench.ts');
  const { SERVE } = await import('./serve.ts');
  const { WORKER } = await import('./worker.ts');
  const { LADDER } = await import('./ladder.ts');
  const { BRIDGE } = await import('./bridge.ts');
  return [PLAY, REPLAY, ...(await benchSpecs()), TOURNAMENT, LADDER, TRAIN, LLM_BENCH, SERVE, WORKER, BRIDGE];
}

/** One block per command; a footer made at run time (the agent list) is left to --help. */
export async function readmeOptionBlocks(): Promise<string[]> {
  return (await specs()).map((s) => `\`czech-pub ${s.name}\`:\n\n\`\`\`text\n${helpText({ ...s, footer: undefined })}\n\`\`\``);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) console.log((await readmeOptionBlocks()).join('\n\n'));
