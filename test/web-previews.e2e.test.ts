/**
 * The previews on the page, end to end in headless Chromium against a server on 127.0.0.1:
 * over a seeded game against bots, every action button and every hand card the person can
 * play shows its own preview at each decision, and where the outcome is certain it equals
 * what the engine does with that choice at that step (worked out here from the game's replay);
 * a move that throws the person out asks first, in a dialog that Escape cancels (nothing is
 * sent) and Enter confirms. The two tests run at once, each in its own browser context.
 * Screenshots go to $SCREENSHOT_DIR (default results/e2e/).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { A_DONE, A_PASS, decodeAction, type ActionKind } from '../env/actions.ts';
import { applyAction } from '../env/engine/flow.ts';
import { applyStep, legalActions } from '../env/engine/index.ts';
import { CzechPubEnv } from '../env/env.ts';
import type { GameEvent } from '../env/events.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { cloneState, type GameState } from '../env/state.ts';
import { engineChange } from './helpers/engine-change.ts';
import { browserTestsRun, confirmIfAsked, fillSeed, pageSuite, watchEveryXCard } from './helpers/browser.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';
const RUN = browserTestsRun();
/** A seed where saying done at every turn brings the person to a third abstinence, found by a search over the API (the Done at step 13). */
const OUT_SEED = 'prev-2';

const suite = pageSuite(SHOTS);

const newPage = () => suite.newPage();

const api = suite.api;

const settled = (page: Page) => page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });

/** Starts a game of the person (seat 0) against bots and waits for its first decision. */
async function start(page: Page, seed: string, bots: string[]): Promise<{ gameId: string; token: string }> {
  await page.goto(suite.base);
  await page.waitForSelector('#start');
  await page.selectOption('#players', String(bots.length + 1));
  for (const [i, bot] of bots.entries()) await page.selectOption(`select.seat-agent[data-seat="${i + 1}"]`, bot);
  await fillSeed(page, seed);
  await page.fill('#pace', '0');
  await page.click('#start');
  await settled(page);
  const made = await page.evaluate(() => (window as any).czechPub);
  // Every kind of choice: the person is asked at the windows of every X card too.
  await watchEveryXCard(page, suite.base, made.gameId, made.token);
  return made;
}

/** What the page shows for each enabled button when it is pointed at: the preview's data. */
const buttonPreviews = (page: Page) => page.evaluate(() => [...document.querySelectorAll<HTMLButtonElement>('button.action:enabled')].map((b) => {
  b.dispatchEvent(new PointerEvent('pointerenter'));
  const shown = document.querySelector<HTMLElement>('#preview-hover .choice-preview');
  return {
    id: Number(b.dataset.action), risky: b.classList.contains('risky'), name: b.childNodes[0].textContent ?? '',
    text: shown?.textContent ?? '', data: shown ? { ...shown.dataset } : null,
  };
}));

interface Shown {
  step: number;
  id: number;
  data: Record<string, string>;
}

type Digest = Extract<GameEvent, { k: 'digest' }>;

/** Plays on from `state` with nobody reacting until `seat` digests (the seat to play says done). */
function digestOf(env: CzechPubEnv, state: GameState, seat: number): Digest | null {
  const r = env.compiledRules;
  const s = cloneState(state);
  const log: GameEvent[] = [];
  while (!s.over && !log.some((e) => e.k === 'digest' || e.k === 'turn')) {
    const legal = legalActions(r, s);
    const a = s.actor === s.active && legal.includes(A_DONE) ? A_DONE : legal.includes(A_PASS) ? A_PASS : legal[legal.length - 1];
    applyStep(r, s, a, log);
  }
  return log.find((e): e is Digest => e.k === 'digest' && e.seat === seat && e.copyOf === undefined) ?? null;
}

describe.runIf(RUN).concurrent('previews on the page in Chromium', () => {
  it("shows every choice's own preview at each decision, equal to the engine's outcome where it is certain", async () => {
    const { page, errors } = await newPage();
    const { gameId, token } = await start(page, 'e2e-previews', ['heuristic', 'random']);
    const rng = seedRng('e2e-previews-clicks');
    const shown: Shown[] = [];
    let hands = 0;
    let xShot = false;
    let decisions = 0;
    for (;;) {
      await settled(page);
      if ((await page.evaluate(() => document.body.dataset.state)) === 'over') break;
      const view = await api(`/v1/games/${gameId}/view`, token);
      const previews = await buttonPreviews(page);
      expect(previews.map((p) => p.id).sort((a, b) => a - b)).toEqual(view.legalActions.map((a: { id: number }) => a.id));
      for (const p of previews) {
        // Its own preview, never another button's or a previous step's.
        expect(p.data?.action, `${p.name} at step ${view.step}`).toBe(String(p.id));
        expect(p.text).toContain(p.name);
        expect(p.risky).toBe(p.data!.risk !== '');
        shown.push({ step: view.step, id: p.id, data: p.data as Record<string, string> });
      }
      const x = previews.find((p) => decodeAction(p.id).group === 'x');
      if (x && !xShot) {
        await page.hover(`button.action[data-action="${x.id}"]`);
        await page.screenshot({ path: join(SHOTS, 'previews-x.png') });
        xShot = true;
      }
      // A hand card the person can play shows the previews of exactly the ways to play it.
      const card = (view.legalActions as { plays?: string }[]).find((a) => a.plays)?.plays;
      if (card && decisions % 3 === 0) {
        await page.locator(`#hand .card[data-card="${card}"]`).first().hover();
        await page.waitForSelector('#card-help:not([hidden]) .choice-preview');
        const ids = await page.locator('#card-help .choice-preview').evaluateAll((ns) => ns.map((n) => Number((n as HTMLElement).dataset.action)));
        expect(ids).toEqual(view.legalActions.filter((a: { plays?: string }) => a.plays === card).map((a: { id: number }) => a.id));
        if (hands++ === 0) await page.screenshot({ path: join(SHOTS, 'previews-hand.png') });
        await page.mouse.move(1, 1);
      }
      // Mostly something other than passing or done, so that every kind of choice comes up.
      const ids = previews.map((p) => p.id);
      const busy = ids.filter((a) => a !== A_PASS && a !== A_DONE);
      const choice = busy.length > 0 && randInt(rng, 10) < 6 ? busy[randInt(rng, busy.length)] : ids[randInt(rng, ids.length)];
      await page.click(`button.action[data-action="${choice}"]`);
      await confirmIfAsked(page);
      decisions++;
      expect(decisions).toBeLessThan(2000);
    }

    // The engine's side: the game replayed, each shown choice applied at its step.
    const replay = await api(`/v1/games/${gameId}/replay`, token);
    const env = new CzechPubEnv({ seed: replay.seed, players: replay.players, askForced: replay.askForced });
    const byStep = new Map<number, Shown[]>();
    for (const s of shown) byStep.set(s.step, [...(byStep.get(s.step) ?? []), s]);
    const met = new Map<ActionKind, { shown: number; compared: number }>();
    let digests = 0;
    for (let k = 0; k <= replay.actions.length; k++) {
      for (const s of byStep.get(k) ?? []) {
        const state = env.state as GameState;
        expect(state.actor).toBe(0);
        const kind = decodeAction(s.id).kind;
        const m = met.get(kind) ?? { shown: 0, compared: 0 };
        m.shown++;
        met.set(kind, m);
        const after = cloneState(state);
        const log: GameEvent[] = [];
        applyAction({ r: env.compiledRules, s: after, log }, s.id);
        if (!log.some((e) => e.k === 'digest') && s.data.certain === 'true') {
          expect(JSON.parse(s.data.changes), `${kind} at step ${k}`).toEqual(engineChange(state, after, 0));
          m.compared++;
        }
        if (s.data.digestWhen !== '' && s.data.points !== '') {
          const digest = s.data.digestWhen === 'now' && log.some((e) => e.k === 'digest')
            ? log.find((e): e is Digest => e.k === 'digest' && e.seat === 0 && e.copyOf === undefined) ?? null
            : digestOf(env, after, 0);
          if (digest) {
            expect({ points: Number(s.data.points), drunkenness: Number(s.data.drunkenness), total: s.data.total === '' ? null : Number(s.data.total) })
              .toEqual({ points: digest.points, drunkenness: digest.drunkenness, total: digest.total ?? null });
            digests++;
          }
        }
      }
      if (k < replay.actions.length) env.step(replay.actions[k]);
    }
    console.log(`previews on the page: ${decisions} decisions; by kind (shown/compared): ${[...met].map(([k, m]) => `${k} ${m.shown}/${m.compared}`).join(', ')}; ${digests} digestions equal`);
    for (const kind of ['order', 'done', 'pass', 'discard']) expect(met.get(kind as ActionKind)?.compared ?? 0, kind).toBeGreaterThan(0);
    // Pub cards, X cards or answers to a card aimed at the person: more than orders and done came up.
    expect(met.size).toBeGreaterThan(6);
    expect(digests).toBeGreaterThan(20);
    expect(hands).toBeGreaterThan(3);
    expect(errors).toEqual([]);
  }, 400_000);

  it('asks before a Done that throws the person out: Escape sends nothing, Enter sends it', async () => {
    const { page, errors } = await newPage();
    const { gameId, token } = await start(page, OUT_SEED, ['heuristic']);
    // Say done at every turn (pass otherwise) until Done would be the third abstinence in a row.
    const done = page.locator(`button.action[data-action="${A_DONE}"]`);
    for (let i = 0; ; i++) {
      expect(i).toBeLessThan(50);
      await page.waitForFunction(() => document.body.dataset.state === 'your-turn', undefined, { timeout: 60_000 });
      if ((await done.count()) > 0 && (await done.getAttribute('data-risk')) === 'out') break;
      const ids = await page.locator('button.action:enabled').evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.action)));
      const id = ids.includes(A_DONE) ? A_DONE : ids.includes(A_PASS) ? A_PASS : ids[ids.length - 1];
      await page.click(`button.action[data-action="${id}"]`);
      expect(await confirmIfAsked(page)).toBe(false);
    }
    const before = await api(`/v1/games/${gameId}/view`, token);
    // Pointing at Done shows the warning, in its own look and words.
    await done.hover();
    const warning = page.locator('#preview-hover .choice-preview.preview-risk .risk-words');
    expect(await warning.textContent()).toMatch(/Warning: this throws you out of the game, for certain/);
    expect(await done.textContent()).toContain('may throw you out');
    const sent: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST') sent.push(new URL(r.url()).pathname); });

    await done.click();
    const dialog = page.locator('#confirm-risk[open]');
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('#confirm-risk') !== null)).toBe(true);
    expect(await dialog.getAttribute('role')).toBe('alertdialog');
    await page.screenshot({ path: join(SHOTS, 'confirm-out.png') });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('#confirm-risk') === null);
    await page.waitForTimeout(300);
    expect(sent).toEqual([]);
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('your-turn');
    expect((await api(`/v1/games/${gameId}/view`, token)).step).toBe(before.step);

    await done.click();
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await settled(page);
    expect(sent).toEqual([`/v1/games/${gameId}/actions`]);
    const after = await api(`/v1/games/${gameId}/view`, token);
    expect(after.step).toBeGreaterThan(before.step);
    expect(after.view.table[0].out).toBe('thrown_out');
    expect(errors).toEqual([]);
  }, 180_000);
});
