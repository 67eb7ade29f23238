// The types of eval/bundle-thread.mjs's export, for test/helpers/cli.ts.
import type { Plugin } from 'esbuild';

/** An esbuild plugin: every TypeScript file's `import.meta.url` is its source's, as if it ran where it lies. */
export function ownImportMetaUrl(): Plugin;
