/**
 * The web page against WCAG 2.2 AA, audited by axe-core in headless Chromium: every screen a
 * person meets (the setup form, the lobby with a table in it, the game at the person's turn and
 * at a reaction prompt, the rules panel, a card's help, the end screen, a replay) at a desktop
 * 1280×800 and a phone 390×844. A serious or critical violation fails the test, with each
 * violation's rule id, the elements it was found on and axe's help line. The audits click the
 * game only until its turn and reaction screens were met; the API plays the rest while the page
 * is away, and the page comes back to the finished game by its link (the keyboard game below is
 * played to the end from the page, the taps game until each kind of tap was met). The four
 * tests run at once, each in its own browser context.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { A_DONE, decodeAction } from '../env/actions.ts';
import { randInt, seedRng, type RngState } from '../env/rng.ts';
import { browserTestsRun, confirmIfAsked, fillSeed, longPress, pageSuite, watchEveryXCard } from './helpers/browser.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';
const RUN = browserTestsRun();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const suite = pageSuite(SHOTS);

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, phone: false },
  { name: 'phone', width: 390, height: 844, phone: true },
];

const api = suite.api;

interface Violation { id: string; impact: string; help: string; targets: string[] }

/** axe-core's serious and critical WCAG A/AA violations on the page as it is now, each as one line. */
async function audit(page: Page, screen: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] }, resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')) }));
  }) as Violation[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(' | ')}`);
}

/**
 * Text under WCAG's contrast minimum (4.5:1, 3:1 for large text) that axe leaves for review:
 * text over the felt's and the wood's gradients. The background is the element's own colours
 * laid over the lightest stop of the gradient under them (the worst case for light text).
 */
async function contrastFailures(page: Page, screen: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const parse = (c: string) => {
      const [r, g, b, a = 1] = rgba(c);
      return r === undefined ? null : [r, g, b, a];
    };
    const over = (f: number[], b: number[]) => [0, 1, 2].map((i) => f[i] * f[3] + b[i] * (1 - f[3])).concat(1);
    const lum = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: number[], b: number[]) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    const lightestStop = (image: string) => (image.match(/rgba?\([^)]*\)/g) ?? []).map(parse).filter((c): c is number[] => c !== null)
      .map((c) => over(c, [0, 0, 0, 1])).sort((x, y) => lum(y) - lum(x))[0];
    const backdrop = (el: Element) => {
      const layers: number[][] = [];
      for (let n: Element | null = el; n; n = n.parentElement) {
        const cs = getComputedStyle(n);
        const c = parse(cs.backgroundColor);
        if (c && c[3] > 0) layers.push(c);
        if (c && c[3] === 1) break;
        const stop = cs.backgroundImage !== 'none' ? lightestStop(cs.backgroundImage) : undefined;
        if (stop) { layers.push(stop); break; }
      }
      let bg = [255, 255, 255, 1];
      for (const l of layers.reverse()) bg = over(l, bg);
      return bg;
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const text = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!text || el.closest('[hidden], :disabled, .visually-hidden, script, style, option') || el.getClientRects().length === 0) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || Number(cs.opacity) === 0) continue;
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      const bg = backdrop(el);
      const fg = over(parse(cs.color)!, bg);
      const r = ratio(fg, bg);
      if (r < (large ? 3 : 4.5)) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.textContent!.trim().slice(0, 20)}" ${r.toFixed(2)}:1`);
    }
    return [...new Set(out)];
  });
  return found.map((f) => `${screen}: contrast ${f}`);
}

/** Mostly orders a drink, else says done, sometimes anything else. */
function pick(rng: RngState, shown: number[]): number {
  const orders = shown.filter((a) => decodeAction(a).group === 'order');
  const r = randInt(rng, 10);
  if (orders.length > 0 && r < 7) return orders[randInt(rng, orders.length)];
  if (shown.includes(A_DONE) && r < 9) return A_DONE;
  return shown[randInt(rng, shown.length)];
}

const settledOn = (page: Page, states: string[]) =>
  page.waitForFunction((s) => s.includes(document.body.dataset.state ?? ''), states, { timeout: 30_000 });

/**
 * Each decision of the page's game, until it is over: the game, the seat's token, its view
 * and legal actions (the seat asked at every X card window from the first decision on).
 */
async function* decisions(page: Page): AsyncGenerator<{ gameId: string; token: string; view: Record<string, any>; legal: Legal }> {
  for (let n = 0; ; n++) {
    expect(n).toBeLessThan(2000);
    await settledOn(page, ['your-turn', 'over']);
    if (await page.evaluate(() => document.body.dataset.state === 'over')) return;
    const { gameId, token } = await page.evaluate(() => (window as any).czechPub);
    if (n === 0) await watchEveryXCard(page, suite.base, gameId, token);
    const view = await api(`/v1/games/${gameId}/view`, token);
    yield { gameId, token, view, legal: view.legalActions as Legal };
  }
}

/** The action `pick` chooses, and the legal actions that play its card (none for a button's action). */
function pickChoice(rng: RngState, legal: Legal): { choice: Legal[number]; ways: Legal } {
  const picked = pick(rng, legal.map((a) => a.id));
  const choice = legal.find((a) => a.id === picked)!;
  return { choice, ways: choice.plays ? legal.filter((a) => a.plays === choice.plays) : [] };
}

/**
 * Plays the seat's decisions through the API with `pick` until the game is over (the bots play
 * on in the server between them), while no page follows the game.
 */
async function playToEndByApi(gameId: string, token: string, rng: RngState): Promise<void> {
  let now = await api(`/v1/games/${gameId}/view`, token);
  for (let n = 0; !now.done; n++) {
    expect(n).toBeLessThan(2000);
    expect(now.yourTurn).toBe(true);
    const legal = (now.legalActions as Legal).map((a) => a.id);
    now = await api(`/v1/games/${gameId}/actions`, token, { action: pick(rng, legal), step: now.step });
  }
}

/** Waits until the game has moved past `step` (the page's move reached the server). */
const stepPassed = (page: Page, gameId: string, token: string, step: number) => page.waitForFunction(async ([id, tok, k]) => {
  const r = await fetch(`/v1/games/${id}/view`, { headers: { authorization: `Bearer ${tok}` } });
  return ((await r.json()) as { step: number }).step > k;
}, [gameId, token, step] as const, { timeout: 30_000 });

describe.runIf(RUN).concurrent('the page against WCAG 2.2 AA (axe-core)', () => {
  for (const vp of VIEWPORTS) {
    it(`has no serious or critical violation on any screen at ${vp.name} ${vp.width}×${vp.height}`, async () => {
      const { page, errors } = await suite.newPage({ viewport: { width: vp.width, height: vp.height }, hasTouch: vp.phone, isMobile: vp.phone });
      const problems: string[] = [];
      const seen = new Set<string>();
      const check = async (screen: string) => {
        seen.add(screen);
        problems.push(...(await audit(page, screen)), ...(await contrastFailures(page, screen)));
      };

      await page.goto(suite.base);
      await page.waitForSelector('#start');
      await check('setup');
      // The lobby with a table in it: a game with a seat for anyone.
      const made = await api('/v1/games', undefined, { seats: ['heuristic', 'open'] });
      expect(made.id).toBeTruthy();
      await page.click('#lobby-refresh');
      await page.waitForSelector(`.lobby-game[data-game="${made.id}"]`);
      await check('lobby');

      await page.selectOption('#players', '2');
      await page.selectOption('select.seat-agent[data-seat="1"]', 'heuristic');
      await fillSeed(page, `a11y-${vp.name}`);
      await page.fill('#pace', '0');
      await page.click('#start');
      const rng = seedRng(`a11y-clicks-${vp.name}`);
      let game: { gameId: string; token: string } | null = null;
      for await (const { gameId, token, view } of decisions(page)) {
        game = { gameId, token };
        // Its turn and a reaction prompt met and audited: the rest of the game is the API's (below).
        if (seen.has('turn') && seen.has('reaction')) break;
        const kind: string = view.view.decision.kind;
        if (kind === 'play' && !seen.has('turn')) {
          await check('turn');
          await page.locator('#hand .card').first().focus();
          await page.waitForSelector('#card-help:not([hidden])');
          await check('card help');
          await page.keyboard.press('Escape');
          await page.click('#rules-open');
          await page.waitForSelector('#rules-panel:not([hidden])');
          await check('rules panel');
          await page.keyboard.press('Escape');
          await page.waitForSelector('#rules-panel', { state: 'hidden' });
        }
        if ((kind === 'reaction' || kind === 'response') && !seen.has('reaction')) await check('reaction');
        const shown = await page.locator('button.action:enabled').evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.action)));
        const button = page.locator(`button.action[data-action="${pick(rng, shown)}"]`);
        if (vp.phone) await button.tap();
        else await button.click();
        await confirmIfAsked(page, vp.phone ? 'tap' : 'click');
      }
      // The rest of the game through the API with the page away, then back to the seat's link: the end screen.
      expect(game).not.toBeNull();
      const link = page.url();
      expect(link).toContain(`#game=${game!.gameId}&seat=`);
      await page.goto('about:blank');
      await playToEndByApi(game!.gameId, game!.token, rng);
      await page.goto(link);
      await page.waitForSelector('#final-scores', { timeout: 30_000 });
      await check('end');
      await page.click('#replay-game');
      await page.waitForSelector('#replay-step');
      await page.click('#replay-forward');
      await page.waitForFunction(() => /^Step 1 \//.test(document.getElementById('replay-step')?.textContent ?? ''));
      await check('replay');

      expect([...seen].sort()).toEqual(['card help', 'end', 'lobby', 'reaction', 'replay', 'rules panel', 'setup', 'turn']);
      if (problems.length > 0) console.error(problems.join('\n'));
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    }, 300_000);
  }
});

/** The legal action ids of the seat's decision, and the card each plays (if it plays one). */
type Legal = { id: number; plays?: string }[];

/** Whether the focused element matches `selector`. */
const focusedIs = (page: Page, selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/**
 * Moves the keyboard focus to the first element matching `selector` with Tab or Shift+Tab only
 * (whichever way it lies in the page's order), and fails if it cannot get there.
 */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 300; presses++) {
    if (await focusedIs(page, selector)) return;
    const forward = await page.evaluate((s) => {
      const target = document.querySelector(s);
      const at = document.activeElement;
      if (!target || !at || at === document.body) return true;
      return (at.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    }, selector);
    await page.keyboard.press(forward ? 'Tab' : 'Shift+Tab');
  }
  throw new Error(`Tab and Shift+Tab never reached ${selector}`);
}

/** Each hand card whose centre is covered by something else (or off screen), by card id. */
const coveredCards = (page: Page, selector = '#hand .card') => page.locator(selector).evaluateAll((cs) => cs.flatMap((c) => {
  const r = c.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null;
  return hit && c.contains(hit) ? [] : [`${(c as HTMLElement).dataset.card} under ${hit ? hit.tagName + '.' + hit.className : 'the screen edge'}`];
}));

const said = (page: Page) => page.evaluate(() => document.getElementById('announce')?.textContent ?? '');

describe.runIf(RUN).concurrent('a whole game without a mouse', () => {
  it('plays a game to the end by keyboard alone (Tab, Shift+Tab, Enter, Space, Escape) against bots', async () => {
    const { page, errors } = await suite.newPage({ viewport: { width: 1280, height: 800 } });
    // The pace is a kept preference, set before the page loads: bots' moves are shown at once.
    await page.addInitScript(() => localStorage.setItem('czech-pub:pace', '0'));
    await page.goto(suite.base);
    await page.waitForSelector('#start');
    // The default table (the person and three bots), with a seed typed in so the game replays.
    await tabTo(page, '#advanced > summary');
    await page.keyboard.press('Enter');
    await tabTo(page, '#seed');
    await page.keyboard.type('a11y-keys');
    await tabTo(page, '#start');
    await page.keyboard.press('Enter');
    const rng = seedRng('a11y-keys');
    const used = { enter: 0, space: 0, choices: 0, buttons: 0, rules: false, escaped: false, reactionSaid: false, turnSaid: false };
    for await (const { gameId, token, view, legal } of decisions(page)) {
      // The live region says the decision the page shows.
      const decision = await page.textContent('#decision');
      await page.waitForFunction((d) => document.getElementById('announce')?.textContent === d || document.body.dataset.state !== 'your-turn', decision);
      if (view.view.decision.kind === 'play') used.turnSaid ||= /^Your turn/.test(await said(page));
      if (view.view.decision.kind === 'reaction') used.reactionSaid ||= /^You may react to/.test(await said(page));
      if (!used.rules) {
        // The rules panel opens from the keyboard; Escape closes it and focus returns to its button.
        await tabTo(page, '#rules-open');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#rules-panel:not([hidden])');
        await page.keyboard.press('Escape');
        await page.waitForSelector('#rules-panel', { state: 'hidden' });
        expect(await focusedIs(page, '#rules-open')).toBe(true);
        used.rules = true;
      }
      const { choice, ways } = pickChoice(rng, legal);
      if (ways.length > 0) {
        // A hand card: focused, its help shows; Enter or Space plays it, or with several ways moves focus to them.
        await tabTo(page, `#hand .card[data-card="${choice.plays}"]`);
        await page.waitForSelector('#card-help:not([hidden])');
        if (!used.escaped) {
          // Escape closes the help; the focus stays on the card.
          await page.keyboard.press('Escape');
          await page.waitForSelector('#card-help', { state: 'hidden' });
          expect(await focusedIs(page, `#hand .card[data-card="${choice.plays}"]`)).toBe(true);
          used.escaped = true;
        }
        const key = (used.enter + used.space) % 2 === 0 ? 'Enter' : ' ';
        await page.keyboard.press(key);
        await confirmIfAsked(page, 'key');
        if (ways.length === 1) {
          used[key === 'Enter' ? 'enter' : 'space']++;
        } else {
          await page.waitForFunction(() => document.activeElement?.matches('button.action.picked') ?? false);
          used.choices++;
          await tabTo(page, `button.action[data-action="${choice.id}"]`);
          await page.keyboard.press('Enter');
          await confirmIfAsked(page, 'key');
        }
      } else {
        await tabTo(page, `button.action[data-action="${choice.id}"]`);
        await page.keyboard.press(used.buttons++ % 2 === 0 ? 'Enter' : ' ');
        await confirmIfAsked(page, 'key');
      }
      await stepPassed(page, gameId, token, view.step);
    }
    await page.waitForSelector('#final-scores');
    await page.waitForFunction(() => /^Game over\. (Winner|Shared win)/.test(document.getElementById('announce')?.textContent ?? ''));
    console.log('keyboard game:', JSON.stringify(used));
    expect(used.enter).toBeGreaterThan(0);
    expect(used.space).toBeGreaterThan(0);
    expect(used.buttons).toBeGreaterThan(0);
    expect(used.turnSaid).toBe(true);
    expect(used.reactionSaid).toBe(true);
    // The end screen's button is reachable too.
    await tabTo(page, '#replay-game');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#replay-step');
    expect(errors).toEqual([]);
  }, 600_000);

  // Whole games by taps at phone sizes are web-reach's (taps at the point on screen); this one
  // plays until the sheet was folded, a card explained by a long press, and cards and buttons tapped.
  it('plays by taps alone on a phone: the hand is never covered, the sheet folds, a long press explains a card', async () => {
    const rules = await api('/v1/ruleset') as { cards: { id: string; text: string }[] };
    const { page, errors } = await suite.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.addInitScript(() => localStorage.setItem('czech-pub:pace', '0'));
    await page.goto(suite.base);
    await page.waitForSelector('#start');
    await page.tap('#advanced > summary');
    await page.tap('#seed');
    await page.keyboard.type('a11y-taps');
    await page.tap('#start');
    const rng = seedRng('a11y-taps');
    const counts = { cards: 0, choices: 0, buttons: 0 };
    let explained = false;
    let folded = false;
    for await (const { gameId, token, view, legal } of decisions(page)) {
      // Nothing covers the hand, the action sheet least of all, before anything is scrolled.
      expect(await coveredCards(page)).toEqual([]);
      if (!folded) {
        // The sheet folds to its prompt and back.
        await page.tap('#sheet-toggle');
        expect(await page.getAttribute('#sheet-toggle', 'aria-expanded')).toBe('false');
        expect(await page.locator('#actions').isVisible()).toBe(false);
        await page.tap('#sheet-toggle');
        expect(await page.getAttribute('#sheet-toggle', 'aria-expanded')).toBe('true');
        folded = true;
      }
      const playable = legal.find((a) => a.plays);
      if (!explained && view.view.decision.kind === 'play' && playable) {
        // A long press shows a card's help, beside the card and not over it, and plays nothing.
        const card = `#hand .card[data-card="${playable.plays}"]`;
        await longPress(page, card);
        await page.waitForSelector('#card-help:not([hidden])');
        const [help, box] = [await page.locator('#card-help').boundingBox(), await page.locator(card).first().boundingBox()];
        const apart = help!.y >= box!.y + box!.height || help!.y + help!.height <= box!.y;
        expect(apart).toBe(true);
        expect(await page.textContent('#card-help-text')).toBe(rules.cards.find((c) => c.id === playable.plays)!.text);
        expect((await api(`/v1/games/${gameId}/view`, token)).step).toBe(view.step);
        await page.tap('#card-help-close');
        await page.waitForSelector('#card-help', { state: 'hidden' });
        explained = true;
      }
      const { choice, ways } = pickChoice(rng, legal);
      if (ways.length > 0) {
        const card = `#hand .card[data-card="${choice.plays}"]`;
        expect(await coveredCards(page, card)).toEqual([]);
        // A first tap selects the card (its help, with a Play button) and sends nothing; a second plays it.
        await page.locator(card).first().tap();
        await page.waitForSelector(`#card-help:not([hidden])[data-card="${choice.plays}"] #card-help-play`);
        expect((await api(`/v1/games/${gameId}/view`, token)).step).toBe(view.step);
        await page.locator(card).first().tap();
        if (ways.length > 1) {
          await page.waitForSelector('button.action.picked');
          await page.tap(`button.action[data-action="${choice.id}"]`);
          counts.choices++;
        } else counts.cards++;
        await confirmIfAsked(page, 'tap');
        // Played, the card's help is closed.
        expect(await page.locator('#card-help').isHidden()).toBe(true);
      } else {
        await page.tap(`button.action[data-action="${choice.id}"]`);
        await confirmIfAsked(page, 'tap');
        counts.buttons++;
      }
      await stepPassed(page, gameId, token, view.step);
      if (explained && counts.cards >= 2 && counts.buttons >= 2) break;
    }
    console.log('phone game:', JSON.stringify(counts));
    expect(explained).toBe(true);
    expect(counts.cards).toBeGreaterThan(0);
    expect(counts.buttons).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/a11y-phone.png` });
    expect(errors).toEqual([]);
  }, 600_000);
});
