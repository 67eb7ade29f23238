#!/usr/bin/env node
// The `czech-pub` command. In a checkout it runs the TypeScript CLI through tsx's loader, so no
// build step is needed; in the installed package (which ships no TypeScript) it runs the CLI
// compiled into dist/ by `npm run build`.
import { existsSync } from 'node:fs';

// `czech-pub play | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const source = new URL('../cli/main.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../dist/cli/main.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
