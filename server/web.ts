/**
 * The web page's files (web/), read once when the server is built and served from memory:
 * `/` is web/index.html, every other file at `/<name>`. The folder is flat and small.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export const WEB_DIR = fileURLToPath(new URL('../web/', import.meta.url));

export function webFiles(dir = WEB_DIR): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return files; // no page in this checkout: the API alone
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(dir, name));
    files.set(`/${name}`, { type, body });
    if (name === 'index.html') files.set('/', { type, body });
  }
  return files;
}
