#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npx czech-pub` needs no build step.
import { register } from 'tsx/esm/api';

// `czech-pub play | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
