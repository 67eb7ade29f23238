/**
 * Players' words and fewer empty decisions, end to end in headless Chromium: the setup form
 * offers the bots by name and strength with the research options folded under "Advanced";
 * a person named at the table plays a whole game at the page's default auto-pass (every X card
 * watched, asked when one answers the card just played), then with two X cards unticked: they
 * are asked only at their own turn, at windows where a watched X card they hold answers the
 * card just played, and at cards aimed at them, and the hand marks which cards auto-pass holds
 * back; names and presence show at the table, in the lobby and on the end screen. The two
 * tests run at once, each in its own browser context.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { A_DONE, A_PASS, decodeAction } from '../env/actions.ts';
import { CzechPubEnv } from '../env/env.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { answers, reactionCard, windowCard } from '../server/auto-pass.ts';
import { browserTestsRun, confirmIfAsked, pageSuite } from './helpers/browser.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';
const RUN = browserTestsRun();

const suite = pageSuite(SHOTS);

const newPage = () => suite.newPage();

const api = suite.api;

/** Auto-pass watches every X card by default; the person unticks two, which are then passed for them. */
const UNWATCHED = ['knocked_over', 'mixed_up'];
/** Whether a watched X card among `legal` answers `card`, the card just played: then the person is asked. */
const answerable = (legal: readonly number[], card: number, unwatched: readonly string[]) =>
  legal.some((a) => { const x = reactionCard(a); return x !== null && !unwatched.includes(x) && answers(a, card); });
const settled = (page: Page) => page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
const panelText = (page: Page, seat: number, part: string) => page.locator(`#table .player[data-seat="${seat}"] ${part}`).textContent();

describe.runIf(RUN).concurrent('players\' words and auto-pass in Chromium', () => {
  it('offers bots by name and strength, folds the research options, and plays a named game asked only what matters', async () => {
    const { page, errors } = await newPage();
    await page.goto(suite.base);
    await page.waitForSelector('#start');
    // The bots by the names players know them by, easiest first; the research words folded away.
    const offered = await page.locator('select.seat-agent[data-seat="1"] optgroup').first().locator('option').allTextContents();
    expect(offered).toEqual(['Beginner (Easy)', 'Regular (Medium)', 'Strong (Hard)', 'Expert (Very hard)']);
    expect(await page.isVisible('#seed')).toBe(false);
    expect(await page.isVisible('text=the shipped policies trained by PPO')).toBe(false);
    await page.click('#advanced > summary');
    expect(await page.isVisible('#seed')).toBe(true);
    expect(await page.locator('.seat-advanced[data-seat="1"] .bot-name').textContent()).toBe('ppo');
    await page.screenshot({ path: `${SHOTS}/setup-advanced.png` });

    await page.fill('#your-name', '  Anna ');
    await page.selectOption('#players', '3');
    await page.selectOption('select.seat-agent[data-seat="1"]', 'heuristic');
    await page.selectOption('select.seat-agent[data-seat="2"]', 'ppo');
    await page.fill('#seed', 'e2e-autopass');
    await page.fill('#pace', '0');
    await page.click('#start');
    await settled(page);
    const { gameId, token } = await page.evaluate(() => (window as any).czechPub);

    // Names and presence at the table.
    expect(await panelText(page, 0, '.name')).toBe('Anna');
    expect(await panelText(page, 0, '.presence')).toBe('here');
    expect(await panelText(page, 1, '.name')).toBe('Regular');
    expect(await panelText(page, 2, '.name')).toBe('Strong');

    // Auto-pass: by default the page asks Anna about every X card she holds, when it answers the card just played.
    await page.waitForSelector('#ask-answering', { state: 'attached' });
    expect(await api(`/v1/games/${gameId}/settings`, token)).toEqual({ autoPass: true, unwatched: [], windows: 'answering' });
    expect(await page.isChecked('#ask-answering')).toBe(true);
    /** The X cards auto-pass holds back from the step `unwatchedFrom` on: none until Anna has been asked at a window at the defaults. */
    let unwatched: string[] = [];
    let unwatchedFrom = Infinity;
    let windowsAtDefaults = 0;
    let handsMarked = 0;

    const rng = seedRng('e2e-autopass-clicks');
    const asked = new Set<number>();
    const kinds: Record<string, number> = {};
    const doneToYou = new Set<string>();
    for (let clicks = 0; ; clicks++) {
      expect(clicks).toBeLessThan(1000);
      await settled(page);
      for (const line of await page.locator('#done-to-you li').allTextContents()) doneToYou.add(line);
      if ((await page.evaluate(() => document.body.dataset.state)) === 'over') break;
      const view = await api(`/v1/games/${gameId}/view`, token);
      const legal: number[] = view.legalActions.map((a: { id: number }) => a.id);
      const kind: string = view.view.decision.kind;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      asked.add(view.step);
      // Every decision asked is Anna's own turn, a card aimed at her with a choice, or a window where a watched X card answers the card just played.
      if (kind === 'reaction' && unwatched.length === 0) windowsAtDefaults++;
      if (kind === 'reaction') expect(answerable(legal, windowCard(view.view.decision), unwatched)).toBe(true);
      else if (kind === 'response') expect(legal.length).toBeGreaterThan(1);
      else expect(['play', 'discard']).toContain(kind);
      // The hand says, on each X card, whether auto-pass holds it back.
      const marks = await page.locator('#hand .card[data-held]').evaluateAll((cs) => cs.map((c) => [(c as HTMLElement).dataset.card, (c as HTMLElement).dataset.held]));
      for (const [card, held] of marks) expect(held).toBe(String(unwatched.includes(String(card))));
      if (marks.some(([, held]) => held === 'true')) {
        handsMarked++;
        expect(await page.locator('#held-note').textContent()).toMatch(/^Auto-pass holds back .+: you are not asked about (it|them)\. Change$/);
      } else if (marks.length > 0) {
        expect(await page.locator('#held-note').textContent()).toBe('You are asked about your X cards when one can answer the card just played. Change');
      }
      // Once asked at a window at the defaults, Anna unticks two X cards, through the hand's Change button.
      if (windowsAtDefaults > 0 && unwatched.length === 0 && marks.length > 0) {
        await page.click('#held-note button');
        expect(await page.evaluate(() => (document.getElementById('seat-settings') as HTMLDetailsElement).open)).toBe(true);
        for (const x of UNWATCHED) {
          const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/v1/games/${gameId}/settings`));
          await page.uncheck(`#seat-settings input[data-watch="${x}"]`);
          expect((await saved).status()).toBe(200);
          await page.waitForSelector(`#seat-settings input[data-watch="${x}"]:enabled`);
        }
        expect(await api(`/v1/games/${gameId}/settings`, token)).toEqual({ autoPass: true, unwatched: UNWATCHED, windows: 'answering' });
        unwatched = UNWATCHED;
        unwatchedFrom = view.step;
        continue;
      }
      const shown = await page.locator('button.action:enabled').evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.action)));
      const orders = shown.filter((a) => decodeAction(a).group === 'order');
      const pick = orders.length > 0 && randInt(rng, 10) < 7 ? orders[randInt(rng, orders.length)]
        : shown.includes(A_PASS) && randInt(rng, 2) === 0 ? A_PASS : shown.includes(A_DONE) ? A_DONE : shown[randInt(rng, shown.length)];
      await page.click(`button.action[data-action="${pick}"]`);
      await confirmIfAsked(page);
    }
    expect(kinds.play).toBeGreaterThan(5);

    expect(windowsAtDefaults).toBeGreaterThan(0);
    expect(handsMarked).toBeGreaterThan(0);
    // The game reached its end; every decision of Anna's with a choice the page did not ask was an auto-pass at a window no watched X card of hers answered.
    const replay = await api(`/v1/games/${gameId}/replay`, token);
    const env = new CzechPubEnv({ seed: replay.seed, players: 3, askForced: replay.askForced });
    let auto = 0;
    for (const a of replay.actions as number[]) {
      // A forced decision (one legal action) is the engine's, taken at once: not asked, and not auto-pass's.
      if (env.actor === 0 && !asked.has(env.actions.length) && env.legalActions().length > 1) {
        const legal = env.legalActions();
        expect(a).toBe(A_PASS);
        expect(legal.every((l) => l === A_PASS || reactionCard(l) !== null)).toBe(true);
        expect(answerable(legal, windowCard(env.publicView().decision), env.actions.length >= unwatchedFrom ? UNWATCHED : [])).toBe(false);
        auto++;
      }
      env.step(a);
    }
    expect(env.done).toBe(true);
    expect(auto).toBeGreaterThan(0);
    // What others did to Anna was said in players' words, naming them.
    for (const line of doneToYou) expect(line).toMatch(/^(Regular|Strong) (knocked over your|mixed up your|said your|poured |played |took |sent |will drink)/);

    // The end screen names everyone.
    const names = await page.locator('#final-scores tbody tr td:first-child').allTextContents();
    expect(names).toEqual(['Anna', 'Regular', 'Strong']);
    await page.screenshot({ path: `${SHOTS}/autopass-end.png` });
    console.log(`auto-pass e2e: ${asked.size} decisions asked (${JSON.stringify(kinds)}), ${auto} auto-passes, ${doneToYou.size} "done to you" lines`);
    expect(errors).toEqual([]);
  }, 300_000);

  it('shows names and presence in the lobby and at the table of someone who joins by name', async () => {
    const made = await api('/v1/games', undefined, { seats: ['remote', 'open', 'random'], names: ['Host'] });
    expect(made.id).toBeTruthy();
    const { page, errors } = await newPage();
    await page.goto(suite.base);
    const entry = page.locator(`.lobby-game[data-game="${made.id}"]`);
    await entry.waitFor();
    expect(await entry.textContent()).toContain('Host (person, here)');
    expect(await entry.textContent()).toContain('Player 1 free');
    expect(await entry.textContent()).toContain('Beginner (random)');
    await page.fill('#join-name', 'Bára');
    await entry.locator('button').click();
    await page.waitForSelector('#table .player[data-seat="1"]');
    expect(await panelText(page, 1, '.name')).toBe('Bára');
    expect(await panelText(page, 0, '.name')).toBe('Host');
    expect(await panelText(page, 0, '.presence')).toBe('here');
    expect(await panelText(page, 2, '.name')).toBe('Beginner');
    const view = await api(`/v1/games/${made.id}/view`, made.watchToken);
    expect(view.names).toEqual(['Host', 'Bára', 'Beginner']);
    expect(errors).toEqual([]);
  }, 120_000);
});
