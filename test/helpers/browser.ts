/**
 * Headless Chromium for end-to-end tests: Debian's package, driven by playwright-core
 * (`npx playwright install` cannot download browsers on this network). The flags keep
 * Chromium from reaching for Google's hosts, which a closed network refuses.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run: on a developer's machine without Chromium they are skipped
 * (the README's test command works on a fresh machine, saying what was skipped); under CI
 * (CI set, and .ci/run installs Chromium) they always run, so a missing browser fails there.
 */
export function browserTestsRun(): boolean {
  if (existsSync(CHROMIUM) || process.env.CI) return true;
  console.warn(`web page end-to-end tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH; CI never skips them)`);
  return false;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
