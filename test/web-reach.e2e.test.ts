/**
 * Every control of a decision within reach at every common window size (issue 43), end to end
 * in headless Chromium: desktops from 1280×720 to 1920×1080, phones of 360×640 to 412×915 held
 * upright (touch) and one turned to 640×360.
 *
 * At each size a game is started from the page's own setup form and played by pressing only
 * controls wholly inside the window that a press at their centre reaches (no sheet, box or
 * edge over them): a mouse click on a desktop, a tap on a phone, at the point on screen, as a
 * person would. The page brings each decision into view itself: the prompt and the first
 * choice must be inside the window before the test moves anything. To reach a choice further
 * down, the test scrolls only as a person does (the mouse wheel, a finger's swipe), never
 * scrollIntoView. Moves follow a seeded rule (mostly the first choice that risks nothing, or
 * saying done; some played from the hand card); a risky choice's confirmation is answered
 * inside the window (cancelled the first time, then confirmed); a game's end screen is reached
 * and its button pressed. The seed is typed under the setup's Advanced, so a failing game
 * replays.
 *
 * Whole games (the setup's Players set to 2, the default bot: a game of seconds) at the
 * tightest sizes, 1280×720, 360×640 and 640×360; the first 8 decisions of the default 4-player
 * table (at its tallest) at the other nine. Then, on a touch phone, a first tap on a playable
 * hand card shows its help and plays nothing, and a second tap (or its Play button) plays it;
 * and the guided game's coach notes close inside a turned phone's window. About 85 s on two
 * busy cores.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { A_DONE } from '../env/actions.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { browserTestsRun, pageSuite, swipe } from './helpers/browser.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';
const RUN = browserTestsRun();

const suite = pageSuite(SHOTS);

/** A window: its size, whether a finger is the pointer, and whether a whole game is played there (else its first decisions). */
interface Size { width: number; height: number; touch: boolean; whole: boolean }
const size = (width: number, height: number, touch: boolean, whole = false): Size => ({ width, height, touch, whole });
const label = (s: Size) => `${s.width}×${s.height}`;
/**
 * Every size, in three lanes that run side by side, each opening with its whole game: a page
 * mostly waits on the server and its own frames, and three keep two cores busy without
 * starving each other (nor a test file run beside this one). The phones' whole games take
 * longest (their swipes and second taps), so the desktops' lane takes one size more.
 */
const LANES: Size[][] = [
  [size(1280, 720, false, true), size(1280, 760, false), size(1280, 800, false), size(1280, 850, false), size(1366, 768, false)],
  [size(360, 640, true, true), size(390, 844, true), size(412, 915, true)],
  [size(640, 360, true, true), size(1440, 900, false), size(1536, 730, false), size(1920, 1080, false)],
];
/** Decisions played at a size where the game is not played whole. */
const FIRST_DECISIONS = 8;
/** `REACH_WHOLE=1`: a whole game at every size (some 6 minutes more), for a release or a change to the layout. */
const ALL_WHOLE = process.env.REACH_WHOLE === '1';

/** Where a control is: inside the window and hit by a press at its centre, or how far to scroll, and where, to bring it there. */
interface Where { inside: boolean; x: number; y: number; dy: number; px: number; band: number[]; rect: number[]; hit: string | null }

/**
 * Runs in the page. The band a scroll can bring the control into is its scrolling box's (the
 * phone's sheet) or else the page's, above a fixed sheet it is not in. `dy` is the scroll that
 * brings it into the band (NaN: no scroll can, it lies beside the window).
 */
function whereIs(selector: string): Where | null {
  const e = document.querySelector(selector);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  const whole = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const hit = whole ? document.elementFromPoint(x, y) : null;
  const inside = whole && hit !== null && e.contains(hit);
  let box = e.parentElement;
  while (box && box !== document.body && !(/(auto|scroll)/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight)) box = box.parentElement;
  if (box === document.body) box = null;
  let top = 0;
  let bottom = innerHeight;
  let px = 3;
  if (box) {
    const b = box.getBoundingClientRect();
    top = Math.max(0, b.top);
    bottom = Math.min(innerHeight, b.bottom);
    px = b.left + b.width / 2;
  } else {
    for (const sheet of document.querySelectorAll('.action-area')) {
      if (getComputedStyle(sheet).position === 'fixed' && !sheet.contains(e)) bottom = Math.min(bottom, sheet.getBoundingClientRect().top);
    }
  }
  let dy = r.bottom > bottom ? r.bottom - bottom + 8 : r.top < top ? r.top - top - 8 : 0;
  // Inside the band but under something (the sheet's prompt held at its top): past it.
  if (dy === 0 && !inside) dy = y < (top + bottom) / 2 ? -(r.height + 8) : r.height + 8;
  if (r.left < 0 || r.right > innerWidth) dy = NaN;
  return { inside, x, y, dy, px, band: [top, bottom], rect: [r.left, r.top, r.right, r.bottom].map(Math.round), hit: hit ? `${hit.tagName}.${hit.className}` : null };
}

const where = (page: Page, selector: string) => page.evaluate(whereIs, selector);

/** What the test reads at a decision, in one call: the decision, where its prompt and first choice are, the hand's cards under the sheet, the choices. */
interface Look { decision: string; prompt: Where | null; first: Where | null; handCovered: string[]; tapHint: boolean; shown: { id: number; risky: boolean }[] }

/**
 * Runs in the page (whereIs and markDecision are installed there). The hand check: where the decision is a sheet
 * fixed at the bottom (a phone held upright), each hand card not whole inside the window above
 * it, for the sheet must not hide the hand. A window too short for both (a phone turned)
 * scrolls the hand away as any page does, and back with a swipe.
 */
function lookAtDecision(): Look {
  const { whereIs: at, markDecision: mark } = window as unknown as { whereIs: typeof whereIs; markDecision: typeof markDecision };
  const sheet = getComputedStyle(document.querySelector('.action-area')!).position === 'fixed';
  const handCovered = !sheet ? [] : [...document.querySelectorAll('#hand .card')].flatMap((c) => {
    const r = c.getBoundingClientRect();
    const hit = r.top >= 0 && r.bottom <= innerHeight ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
    return hit && c.contains(hit) ? [] : [`${(c as HTMLElement).dataset.card} under ${hit ? `${hit.tagName}.${hit.className}` : 'the window edge'}`];
  });
  mark();
  return {
    decision: document.getElementById('decision')?.textContent ?? '',
    prompt: at('#prompt'),
    first: at('button.action:enabled'),
    handCovered,
    tapHint: (document.querySelector('.tap-hint') as HTMLElement | null)?.checkVisibility() ?? false,
    shown: [...document.querySelectorAll('button.action:enabled')].map((b) => ({ id: Number((b as HTMLElement).dataset.action), risky: (b as HTMLElement).dataset.risk !== undefined })),
  };
}

/** Runs in the page: marks a choice of the decision asked now, which is turned off once a move is on its way (or gone, the next decision drawn). */
function markDecision(): void {
  (window as unknown as { reachMark: Element | null }).reachMark = document.querySelector('button.action:enabled');
}

/** Waits until nothing on the page scrolls any more (a wheel's scroll may be animated). */
async function scrollsSettled(page: Page): Promise<void> {
  let last = '';
  for (let i = 0; i < 40; i++) {
    const now = await page.evaluate(() => new Promise<string>((resolve) => requestAnimationFrame(() => resolve(
      [scrollY, ...[...document.querySelectorAll('.action-area, #card-help .help-body')].map((b) => b.scrollTop)].join(',')))));
    if (now === last) return;
    last = now;
  }
}

/**
 * Presses a control as a person would: scrolled to (by wheel or swipe) only when the page did
 * not bring it into the window, then clicked or tapped at its centre, the test having checked
 * it is wholly inside the window and nothing lies over it. Returns how many scrolls it took.
 */
async function press(page: Page, selector: string, touch: boolean): Promise<number> {
  for (let scrolls = 0; scrolls < 25; scrolls++) {
    const at = await where(page, selector);
    if (!at) throw new Error(`no ${selector} on the page`);
    if (at.inside) {
      if (touch) await page.touchscreen.tap(at.x, at.y);
      else await page.mouse.click(at.x, at.y);
      return scrolls;
    }
    if (!Number.isFinite(at.dy)) throw new Error(`${selector} lies beside the window: ${JSON.stringify(at)}`);
    const [top, bottom] = at.band;
    if (touch) {
      // A swipe within the band, as far as it allows (a finger's first pixels of travel do not scroll).
      const travel = Math.sign(at.dy) * Math.min(Math.abs(at.dy) + 16, 0.8 * (bottom - top));
      await swipe(page, at.px, at.dy > 0 ? bottom - 0.1 * (bottom - top) : top + 0.1 * (bottom - top), travel);
    } else {
      await page.mouse.move(at.px, (top + bottom) / 2);
      await page.mouse.wheel(0, at.dy);
    }
    await scrollsSettled(page);
    const moved = await where(page, selector);
    if (moved && moved.rect.join() === at.rect.join() && !moved.inside) throw new Error(`${selector} cannot be scrolled into the window: ${JSON.stringify(at)}`);
  }
  throw new Error(`${selector} never came into the window`);
}

/** Waits for the person's decision or the end. */
async function next(page: Page): Promise<'your-turn' | 'over'> {
  const state = await page.waitForFunction(() => {
    const now = document.body.dataset.state;
    return now === 'your-turn' || now === 'over' ? now : false;
  }, undefined, { timeout: 30_000 });
  return (await state.jsonValue()) as 'your-turn' | 'over';
}

const pageState = (page: Page) => page.evaluate(() => document.body.dataset.state);
/**
 * Waits until the move just pressed is on its way (a tap's click comes a moment after the
 * finger lifts; the next decision may be drawn already), or its confirmation asks first: true then.
 */
async function sent(page: Page, what: string): Promise<boolean> {
  const answer = await page.waitForFunction(() => {
    const mark = (window as unknown as { reachMark: HTMLButtonElement | null }).reachMark;
    if (document.querySelector('#confirm-risk[open]') !== null) return 'asks';
    return !mark || !mark.isConnected || mark.disabled ? 'sent' : false;
  }, undefined, { timeout: 10_000 }).catch(() => {
    throw new Error(`${what}: the press sent nothing (its click missed the control)`);
  });
  return (await answer.jsonValue()) === 'asks';
}

/** What a run pressed, and what the page failed to do by itself (or did wrong, or an error it logged). */
interface Run { decisions: number; buttons: number; cards: number; secondTaps: number; playButtons: number; confirmed: number; cancelled: number; scrolls: number; ended: boolean; missed: string[] }

/** A page at a window size, a finger the pointer on a phone, bots' moves shown at once, the game not started. */
async function openPage(s: Size): Promise<{ page: Page; errors: string[] }> {
  const opened = await suite.newPage({ viewport: { width: s.width, height: s.height }, hasTouch: s.touch, isMobile: s.touch });
  // The pace is the page's own kept setting.
  await opened.page.addInitScript(() => localStorage.setItem('czech-pub:pace', '0'));
  await opened.page.addInitScript(`window.whereIs = ${whereIs.toString()}`);
  await opened.page.addInitScript(`window.markDecision = ${markDecision.toString()}`);
  await opened.page.goto(suite.base);
  await opened.page.waitForSelector('#start');
  return opened;
}

/**
 * Plays at one size: starts the game from the setup form (`players` picked there unless the
 * default), then `most` decisions or the whole game, by presses inside the window only.
 */
async function playAt(s: Size, most: number, players: string | null): Promise<Run> {
  const name = label(s);
  const run: Run = { decisions: 0, buttons: 0, cards: 0, secondTaps: 0, playButtons: 0, confirmed: 0, cancelled: 0, scrolls: 0, ended: false, missed: [] };
  const { page, errors } = await openPage(s);
  if (players) await page.selectOption('#players', players);
  // A seed typed under Advanced, so a game that fails replays.
  run.scrolls += await press(page, '#advanced > summary', s.touch);
  run.scrolls += await press(page, '#seed', s.touch);
  await page.keyboard.type(`reach/${name}`);
  run.scrolls += await press(page, '#start', s.touch);
  const rng = seedRng(`reach/${name}`);
  let game: { gameId: string; token: string } | null = null;
  let step = -1;
  /** What the test did at the last decision (for a message). */
  let last = '';
  while (run.decisions < most) {
    const now = await next(page);
    game ??= await page.evaluate(() => (window as any).czechPub);
    if (now === 'over') {
      // The end screen is brought into view too; its button is pressed where it is.
      if (!(await where(page, '#end h2'))?.inside) run.missed.push(`${name} end: the end screen was not scrolled into the window`);
      run.scrolls += await press(page, '#replay-game', s.touch);
      await page.waitForSelector('#replay-step');
      run.ended = true;
      break;
    }
    const [look, view] = await Promise.all([page.evaluate(lookAtDecision), suite.api(`/v1/games/${game!.gameId}/view`, game!.token)]);
    const { decision, prompt, first } = look;
    if (!prompt?.inside || !first?.inside) run.missed.push(`${name} "${decision}": prompt ${JSON.stringify(prompt)}, first choice ${JSON.stringify(first)}`);
    run.missed.push(...look.handCovered.map((c) => `${name} "${decision}": ${c}`));
    if (look.tapHint !== s.touch) run.missed.push(`${name}: the line on tapping cards is ${look.tapHint ? 'shown' : 'not shown'}`);
    // Each press made a move (a card's first tap alone would not have).
    if (view.step <= step) run.missed.push(`${name} "${decision}": the move before step ${view.step} was not made (${last})`);
    step = view.step;
    const plays = new Map<number, string | undefined>(view.legalActions.map((a: { id: number; plays?: string }) => [a.id, a.plays]));
    const choices = look.shown.map((c) => ({ ...c, plays: plays.get(c.id) }));
    const safe = choices.filter((c) => !c.risky);
    const risky = choices.filter((c) => c.risky);
    const r = randInt(rng, 10);
    if (risky.length > 0 && (safe.length === 0 || run.confirmed === 0)) {
      // A risky choice asks first: its dialog's buttons are inside the window too. The first
      // time it is cancelled (nothing sent), the next time (or with nothing safe left) confirmed.
      run.scrolls += await press(page, `button.action[data-action="${risky[0].id}"]`, s.touch);
      await page.waitForFunction(() => document.querySelector('#confirm-risk[open]') !== null);
      if (safe.length === 0 || run.cancelled > 0) {
        last = `confirmed ${risky[0].id}`;
        run.scrolls += await press(page, '#confirm-yes', s.touch);
        await sent(page, `${name} "${decision}": ${last}`);
        run.confirmed++;
        run.decisions++;
        continue;
      }
      run.scrolls += await press(page, '#confirm-no', s.touch);
      await page.waitForFunction(() => document.querySelector('#confirm-risk') === null);
      if ((await pageState(page)) !== 'your-turn') run.missed.push(`${name} "${decision}": Cancel sent the risky choice`);
      run.cancelled++;
    }
    // Mostly the first safe choice; often saying done (turns, and so games, stay short); now and then any safe one.
    const done = safe.find((c) => c.id === A_DONE);
    const pick = r < 4 ? safe[0] : r < 7 && done ? done : safe[randInt(rng, safe.length)];
    last = `${pick.id}${pick.plays ? ` (${pick.plays})` : ''} r=${r}`;
    const ways = pick.plays ? choices.filter((c) => c.plays === pick.plays).length : 0;
    if (pick.plays && r % 2 === 0) {
      // Played from the hand card.
      const card = `#hand .card[data-card="${pick.plays}"]`;
      run.scrolls += await press(page, card, s.touch);
      if (s.touch) {
        // A finger's first tap selects the card: its help, with a Play button; nothing is sent.
        await page.waitForSelector(`#card-help:not([hidden])[data-card="${pick.plays}"] #card-help-play`);
        if ((await pageState(page)) !== 'your-turn') run.missed.push(`${name} "${decision}": a first tap on ${pick.plays} played it`);
        if (run.cards % 2 === 0) {
          run.scrolls += await press(page, '#card-help-play', true);
          run.playButtons++;
        } else {
          run.scrolls += await press(page, card, true);
          run.secondTaps++;
        }
      }
      if (ways > 1) {
        // Several ways: its buttons are picked out, and the one chosen is pressed.
        await page.waitForSelector('button.action.picked');
        run.scrolls += await press(page, `button.action[data-action="${pick.id}"]`, s.touch);
      }
      run.cards++;
    } else {
      run.scrolls += await press(page, `button.action[data-action="${pick.id}"]`, s.touch);
      run.buttons++;
    }
    const ok = await sent(page, `${name} "${decision}": ${last}`);
    if (ok) {
      run.scrolls += await press(page, '#confirm-yes', s.touch);
      await sent(page, `${name} "${decision}": confirmed ${last}`);
      run.confirmed++;
    }
    run.decisions++;
  }
  await page.screenshot({ path: `${SHOTS}/reach-${name}.png` });
  run.missed.push(...errors.map((e) => `${name}: page error ${e}`));
  await page.context().close();
  return run;
}

describe.runIf(RUN).concurrent('every control within reach at every common window size', () => {
  for (const lane of LANES) {
    const names = lane.map((s) => `${label(s)}${s.touch ? ' (touch)' : ''}${s.whole || ALL_WHOLE ? ' whole game' : ''}`);
    it(`by ${lane.some((s) => s.touch) ? 'taps and clicks' : 'clicks'} inside the window: ${names.join(', ')}`, async ({ expect }) => {
      const problems: string[] = [];
      for (const at of lane) {
        const s = ALL_WHOLE ? { ...at, whole: true } : at;
        // A whole game on a table of 2 (it takes seconds); the first decisions on the default table of 4, at its tallest.
        const run = await playAt(s, s.whole ? Infinity : FIRST_DECISIONS, s.whole ? '2' : null).catch((e: Error) => {
          problems.push(`${label(s)}: ${e.message}`);
          return null;
        });
        if (!run) continue;
        console.log(`${label(s)}:`, JSON.stringify({ ...run, missed: run.missed.length }));
        problems.push(...run.missed);
        // A risky choice is sure to come only in the games chosen for it (a sweep's other games may meet none).
        if (s.whole && !(run.ended && run.cards > 0 && (run.cancelled + run.confirmed > 0 || !at.whole))) problems.push(`${label(s)}: the game did not end, or no card or confirmation was met`);
        if (!s.whole && run.decisions !== FIRST_DECISIONS) problems.push(`${label(s)}: ${run.decisions} decisions`);
      }
      expect(problems).toEqual([]);
    }, 400_000);
  }
});

describe.runIf(RUN).concurrent('a finger on a hand card', () => {
  it('on a touch phone, a first tap on a playable card shows its help and plays nothing; a second tap, or its Play button, plays it', async () => {
    const phone = size(390, 844, true);
    const rules = await suite.api('/v1/ruleset') as { cards: { id: string; name: string; text: string }[] };
    const { page, errors } = await openPage(phone);
    await page.selectOption('#players', '2');
    await press(page, '#start', true);
    const ways = ['second tap', 'Play button'];
    for (let decisions = 0; ways.length > 0; decisions++) {
      expect(decisions).toBeLessThan(60);
      expect(await next(page)).toBe('your-turn');
      const { gameId, token } = await page.evaluate(() => (window as any).czechPub);
      const view = await suite.api(`/v1/games/${gameId}/view`, token);
      const legal = view.legalActions as { id: number; plays?: string }[];
      const card = legal.map((a) => a.plays).find((c) => c && legal.filter((a) => a.plays === c).length === 1);
      const risky = await page.locator('button.action[data-risk]').count();
      if (!card || risky > 0) {
        await page.evaluate(markDecision);
        await press(page, `button.action:not([data-risk])`, true);
        await sent(page, 'a choice before the card');
        continue;
      }
      const selector = `#hand .card[data-card="${card}"]`;
      await press(page, selector, true);
      // Its help: what it does, what playing it would give, a Play button; nothing sent.
      await page.waitForSelector(`#card-help:not([hidden])[data-card="${card}"]`);
      const help = rules.cards.find((c) => c.id === card)!;
      expect(await page.textContent('#card-help-text')).toBe(help.text);
      expect(await page.locator('#card-help .help-now .choice-preview').count()).toBe(1);
      expect(await page.textContent('#card-help-play')).toBe(`Play ${help.name}`);
      await page.waitForTimeout(400);
      expect((await suite.api(`/v1/games/${gameId}/view`, token)).step).toBe(view.step);
      expect(await pageState(page)).toBe('your-turn');
      // The line beside the hand says so.
      expect(await page.isVisible('.tap-hint')).toBe(true);
      const way = ways.shift()!;
      await press(page, way === 'second tap' ? selector : '#card-help-play', true);
      await page.waitForFunction(async ([id, tok, k]) => {
        const r = await fetch(`/v1/games/${id}/view`, { headers: { authorization: `Bearer ${tok}` } });
        return ((await r.json()) as { step: number }).step > k;
      }, [gameId, token, view.step] as const, { timeout: 30_000 });
      // The move made is the card's one way.
      const played = await suite.api(`/v1/games/${gameId}/view?at=${view.step + 1}`, token);
      expect(played.lastAction.id, way).toBe(legal.find((a) => a.plays === card)!.id);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});

describe.runIf(RUN).concurrent('the coach notes on a phone turned sideways', () => {
  // test/web-guide.e2e.test.ts closes them at the other eleven sizes.
  it('closes the notes of the guided game\'s first turns by a tap inside the window at 640×360', async () => {
    const { page, errors } = await openPage(size(640, 360, true));
    await press(page, '#guide-start', true);
    const seen: string[] = [];
    for (let decisions = 0; decisions < 2;) {
      await page.waitForFunction(() => !(document.getElementById('guide-note') as HTMLElement).hidden || document.body.dataset.state === 'your-turn', undefined, { timeout: 30_000 });
      const moment = await page.evaluate(() => { const n = document.getElementById('guide-note') as HTMLElement; return n.hidden ? null : n.dataset.moment!; });
      if (moment) {
        expect((await where(page, '#guide-ok'))?.inside, moment).toBe(true);
        await press(page, '#guide-ok', true);
        await page.waitForFunction((m) => (document.getElementById('guide-note') as HTMLElement).hidden || (document.getElementById('guide-note') as HTMLElement).dataset.moment !== m, moment);
        seen.push(moment);
      } else {
        await page.evaluate(markDecision);
        await press(page, 'button.action:enabled:not([data-risk])', true);
        await sent(page, 'a choice between the notes');
        decisions++;
      }
    }
    expect(seen.slice(0, 2)).toEqual(['goal', 'turn']);
    expect(errors).toEqual([]);
  }, 120_000);
});
