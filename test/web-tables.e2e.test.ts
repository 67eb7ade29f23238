/**
 * The web page's tables for people, its help and its tournament replays, end to end in
 * headless Chromium against a server on 127.0.0.1: two browser contexts play one game through
 * their links (each seeing only its own hand, one reloading mid-game, an onlooker following
 * with the watch link), the preview is checked
 * against the engine's digestion of the same game, the lobby seats a third browser, a card's
 * help shows on hover, and a tournament game opens from its link and from a games.jsonl. The
 * tests run at once, each in its own browser contexts. Screenshots go to $SCREENSHOT_DIR
 * (default results/e2e/). A phone's touch (a long press, first and second taps, every control
 * in view at every decision) is web-reach's and web-a11y's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/default-registry.ts';
import { EnvObservation } from '../agents/observation.ts';
import { agentSeed } from '../agents/seed.ts';
import { A_DONE, A_PASS } from '../env/actions.ts';
import { CzechPubEnv } from '../env/env.ts';
import type { GameEvent } from '../env/events.ts';
import { seedRng } from '../env/rng.ts';
import { gameLine } from '../eval/game-line.ts';
import { encodeReplay, recordOf } from '../eval/replay-record.ts';
import { runTournament } from '../eval/tournament.ts';
import { browserTestsRun, confirmIfAsked, fillSeed, pageSuite } from './helpers/browser.ts';
import { newcomerPick } from './helpers/newcomer.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';
const RUN = browserTestsRun();

const suite = pageSuite(SHOTS);
/** A fresh browser (its own localStorage) with one page; page errors are collected. */
const newPage = (width = 1280, height = 900) => suite.newPage({ viewport: { width, height } });
const api = suite.api;

const pageState = (page: Page) => page.evaluate(() => document.body.dataset.state);
const settled = (page: Page) => page.waitForFunction(() => ['your-turn', 'playing', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });


/**
 * What a seat's page shows at its decision, read in one call: its hand as counts by card id,
 * how many other seats' hands are drawn, the enabled action ids, and the preview's "now" line.
 */
const seatOnPage = (page: Page) => page.evaluate(() => {
  const hand: Record<string, number> = {};
  for (const c of document.querySelectorAll<HTMLElement>('#hand .card')) hand[c.dataset.card!] = (hand[c.dataset.card!] ?? 0) + 1;
  const now = document.querySelector<HTMLElement>('#preview [data-role="now"]');
  return {
    hand,
    seatHands: document.querySelectorAll('.seat-hand').length,
    shown: [...document.querySelectorAll<HTMLElement>('button.action:enabled')].map((b) => Number(b.dataset.action)),
    now: now ? { ...now.dataset } : null,
    preview: document.querySelector('#preview') !== null,
  };
});

/** Starts a two-player game of the page's person against heuristic, and waits for its first decision. */
async function twoPlayerGame(page: Page, seed: string): Promise<void> {
  await page.goto(suite.base);
  await page.waitForSelector('#start');
  await page.selectOption('#players', '2');
  await page.selectOption('select.seat-agent[data-seat="1"]', 'heuristic');
  await fillSeed(page, seed);
  await page.click('#start');
  await page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
}

interface Previewed {
  step: number;
  seat: number;
  points: number;
  drunkenness: number;
  total: number | null;
}

describe.runIf(RUN).concurrent('tables for people, help and tournament replays in Chromium', () => {
  it('two browsers play one game through their links against bots, each seeing only its own hand; a reload returns to the seat; the preview matches the digestion', async () => {
    const a = await newPage();
    await a.page.goto(suite.base);
    await a.page.waitForSelector('#start');
    await a.page.selectOption('#players', '4');
    for (const [seat, who] of ['remote', 'friend', 'heuristic', 'random'].entries()) await a.page.selectOption(`select.seat-agent[data-seat="${seat}"]`, who);
    await fillSeed(a.page, 'e2e-table');
    await a.page.fill('#pace', '0');
    await a.page.click('#start');
    await settled(a.page);
    // The creator's page shows the friend's join link and the onlookers' link.
    const friendLink = await a.page.inputValue('#links input[data-seat="1"]');
    expect(friendLink).toMatch(/#game=[\w-]+&seat=[\w-]+$/);
    expect(await a.page.inputValue('#links input[data-watch]')).toMatch(/#game=[\w-]+&watch=[\w-]+$/);
    const b = await newPage();
    await b.page.goto(friendLink);
    await settled(b.page);
    await b.page.fill('#pace', '0');
    await a.page.screenshot({ path: join(SHOTS, 'join.png') });
    // An onlooker follows the game live: the public view, no hand.
    const w = await newPage();
    await w.page.goto(await a.page.inputValue('#links input[data-watch]'));
    await settled(w.page);
    await w.page.fill('#pace', '0');
    expect(await w.page.evaluate(() => [document.body.dataset.mode, (window as any).czechPub.token])).toEqual(['watch', null]);

    const pages = [a, b];
    const tokens: string[] = [];
    for (const p of pages) tokens.push((await p.page.evaluate(() => (window as any).czechPub)).token);
    expect(tokens[0]).not.toBe(tokens[1]);
    const gameId: string = (await a.page.evaluate(() => (window as any).czechPub)).gameId;
    expect(await b.page.evaluate(() => (window as any).czechPub.gameId)).toBe(gameId);
    // Every game request a page makes carries its own seat's token, never the other's.
    const auths: string[][] = [[], []];
    pages.forEach((p, i) => p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith(`/v1/games/${gameId}`)) auths[i].push(r.headers().authorization ?? ''); }));

    const rng = seedRng('e2e-table-clicks');
    const previews: Previewed[] = [];
    let clicks = 0;
    let reloaded = false;
    let helped = false;
    for (;;) {
      const now = await api(`/v1/games/${gameId}/view`, tokens[0]);
      if (now.done) break;
      const seat: number = now.actor;
      expect([0, 1]).toContain(seat);
      const { page } = pages[seat];
      // The other person's page learns of the turn through the event stream.
      await page.waitForFunction(() => document.body.dataset.state === 'your-turn', undefined, { timeout: 60_000 });
      const [view, onPage] = await Promise.all([api(`/v1/games/${gameId}/view`, tokens[seat]), seatOnPage(page)]);
      expect(view.step).toBe(now.step);
      expect(onPage.hand).toEqual(Object.fromEntries(Object.entries(view.view.hand).filter(([, n]) => (n as number) > 0)));
      // No other seat's hand is drawn anywhere on a seat's page.
      expect(onPage.seatHands).toBe(0);
      const shown = onPage.shown;
      expect([...shown].sort((x, y) => x - y)).toEqual(view.legalActions.map((x: { id: number }) => x.id).sort((x: number, y: number) => x - y));
      if (onPage.now) {
        const data = onPage.now;
        previews.push({ step: view.step, seat, points: Number(data.points), drunkenness: Number(data.drunkenness), total: data.total === '' ? null : Number(data.total) });
      }
      // The help box: a hand card's text on hover, with what playing it now would give.
      if (!helped && seat === 0 && onPage.preview) {
        const order = view.legalActions.find((x: { plays?: string; id: number }) => x.plays && x.id < 10);
        if (order) {
          await page.locator(`#hand .card[data-card="${order.plays}"]`).first().hover();
          await page.waitForSelector('#card-help:not([hidden]) .help-now .preview-line');
          await page.screenshot({ path: join(SHOTS, 'preview.png') });
          helped = true;
          await page.mouse.move(1, 1);
        }
      }
      const choice = newcomerPick(rng, shown);
      // A card in the hand plays when clicked (one legal way to play it); else its button.
      const asCard = view.legalActions.filter((x: { plays?: string }) => x.plays && x.plays === view.legalActions.find((y: { id: number }) => y.id === choice)?.plays);
      if (choice < A_DONE && asCard.length === 1) await page.locator(`#hand .card[data-card="${asCard[0].plays}"]`).first().click();
      else await page.click(`button.action[data-action="${choice}"]`);
      await confirmIfAsked(page);
      await settled(page);
      clicks++;
      expect(clicks).toBeLessThan(3000);
      if (!reloaded && seat === 1 && clicks > 12) {
        await b.page.reload();
        await settled(b.page);
        const back = await b.page.evaluate(() => (window as any).czechPub);
        expect({ gameId: back.gameId, token: back.token }).toEqual({ gameId, token: tokens[1] });
        expect(await b.page.getAttribute('.player.you', 'data-seat')).toBe('1');
        reloaded = true;
      }
    }
    expect(reloaded).toBe(true);
    expect(helped).toBe(true);
    for (const p of [...pages, w]) await p.page.waitForFunction(() => document.body.dataset.state === 'over', undefined, { timeout: 60_000 });
    console.log(`two browsers' game: ${clicks} clicks, ${previews.length} previews`);
    expect(await w.page.locator('#hand, .seat-hand').count()).toBe(0);
    const final = await api(`/v1/games/${gameId}/view`, tokens[1]);
    for (const p of [...pages, w]) {
      const rows = await p.page.locator('#final-scores [data-seat]').evaluateAll((rs) => rs.map((r) => ({ ...(r as HTMLElement).dataset })));
      expect(rows.map((r) => Number(r.score))).toEqual(final.scores);
      // The breakdown adds up: points + shot-type bonus = score, points as the view has them.
      rows.forEach((r, s) => {
        expect(Number(r.points)).toBe(final.view.table[s].points);
        expect(Number(r.points) + Number(r.bonus)).toBe(Number(r.score));
      });
    }
    await b.page.screenshot({ path: join(SHOTS, 'end-breakdown.png') });
    auths.forEach((list, i) => {
      expect(list.length).toBeGreaterThan(10);
      for (const h of list) expect(h).toBe(`Bearer ${tokens[i]}`);
    });

    // The preview against the engine: replay the game and digest each previewed "done" where nobody reacted.
    const replay = await api(`/v1/games/${gameId}/replay`, tokens[0]);
    const env = new CzechPubEnv({ seed: replay.seed, players: replay.players, askForced: replay.askForced, log: true });
    let checked = 0;
    const actions: number[] = replay.actions;
    const bySeatStep = new Map(previews.map((p) => [p.step, p]));
    for (let k = 0; k < actions.length; k++) {
      const p = bySeatStep.get(k);
      const from = env.eventCount;
      env.step(actions[k]);
      if (!p || actions[k] !== A_DONE) continue;
      // Step on (a copy) until the seat digests; count it only if every reaction in between was a pass.
      const probe = env.clone();
      let quiet = true;
      for (let j = k + 1; j < actions.length && !probe.fullLog.slice(from).some((e) => e.k === 'digest'); j++) {
        if (actions[j] !== A_PASS) quiet = false;
        probe.step(actions[j]);
      }
      const digest = probe.fullLog.slice(from).find((e): e is Extract<GameEvent, { k: 'digest' }> => e.k === 'digest' && e.seat === p.seat && e.copyOf === undefined);
      if (!quiet || !digest) continue;
      expect({ points: p.points, drunkenness: p.drunkenness, total: p.total }).toEqual({ points: digest.points, drunkenness: digest.drunkenness, total: digest.total ?? null });
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
    expect([...a.errors, ...b.errors, ...w.errors]).toEqual([]);
  }, 300_000);

  it('lists a game with an open seat in the lobby, and a third browser takes it with Join', async () => {
    const made = await api('/v1/games', undefined, { seats: ['random', 'open', 'heuristic'] });
    const c = await newPage();
    await c.page.goto(suite.base);
    const entry = c.page.locator(`.lobby-game[data-game="${made.id}"]`);
    await entry.waitFor();
    // The first screen says what the game is about, in the server's words.
    const rules = await api('/v1/ruleset');
    expect(await c.page.textContent('#goal')).toBe(rules.glossary.find((g: { term: string }) => g.term === 'Goal').text);
    expect(await c.page.isVisible('#goal')).toBe(true);
    expect(await entry.textContent()).toContain('Player 1 free');
    await c.page.screenshot({ path: join(SHOTS, 'lobby.png') });
    await entry.locator('button').click();
    await settled(c.page);
    const me = await c.page.evaluate(() => (window as any).czechPub);
    expect(me.gameId).toBe(made.id);
    expect((await api(`/v1/games/${made.id}/view`, me.token)).seat).toBe(1);
    expect(await c.page.getAttribute('.player.you', 'data-seat')).toBe('1');
    // Taken: the lobby no longer offers it.
    expect((await api('/v1/games')).games.some((g: { id: string }) => g.id === made.id)).toBe(false);
    expect(c.errors).toEqual([]);
  }, 120_000);

  it("shows a card's help on hover, the rules panel with every card, and the consequence of a discard", async () => {
    const rules = await api('/v1/ruleset');
    const d = await newPage();
    await twoPlayerGame(d.page, 'e2e-help');
    expect(await pageState(d.page)).toBe('your-turn');
    const card = d.page.locator('#hand .card').first();
    const id = await card.getAttribute('data-card');
    await card.hover();
    await d.page.waitForSelector('#card-help:not([hidden])');
    expect(await d.page.textContent('#card-help-text')).toBe(rules.cards.find((c: { id: string }) => c.id === id).text);
    await d.page.screenshot({ path: join(SHOTS, 'card-help.png') });
    // Off the card the box goes; the buttons and the chart explain themselves in place.
    await d.page.mouse.move(1, 1);
    await d.page.waitForSelector('#card-help', { state: 'hidden' });
    const discard = await d.page.locator('.group-note').allTextContents();
    expect(discard.join(' ')).toMatch(/the turn is an abstinence \(you lose \d+ points? and move \d+ back\)/);
    expect(await d.page.getAttribute('.player.you .chart', 'title')).toBe(rules.glossary.find((g: { term: string }) => g.term === 'Drunkenness chart').text);
    await d.page.click('#rules-open');
    const listed = await d.page.locator('#rules-body dd[data-card]').evaluateAll((ds) => ds.map((x) => (x as HTMLElement).dataset.card));
    expect(listed).toEqual([...rules.cards.map((c: { id: string }) => c.id), 'closing_time']);
    expect(await d.page.locator('#rules-body .glossary dt').allTextContents()).toEqual(rules.glossary.map((g: { term: string }) => g.term));
    expect(await d.page.locator('#rules-body .glossary dt').first().textContent()).toBe('Goal');
    expect(await d.page.getAttribute('#rules-open', 'aria-expanded')).toBe('true');
    // Escape closes the panel, from inside it too, and focus goes back to the Rules button.
    await d.page.focus('#rules-close');
    await d.page.keyboard.press('Escape');
    await d.page.waitForSelector('#rules-panel', { state: 'hidden' });
    expect(await d.page.evaluate(() => document.activeElement?.id)).toBe('rules-open');
    expect(await d.page.getAttribute('#rules-open', 'aria-expanded')).toBe('false');
    expect(d.errors).toEqual([]);
  }, 120_000);

  it('opens a tournament game from its #replay= link and from a games.jsonl, and steps through to the recorded final scores', async () => {
    const specs = ['heuristic', 'greedy', 'random'];
    const agents = specs.map(createAgent);
    const env = new CzechPubEnv({ seed: 'e2e-tournament', players: 3, log: true });
    agents.forEach((ag, seat) => ag.reset?.({ seat, players: 3, seed: agentSeed('e2e-tournament', seat) }));
    while (!env.done) env.step(await agents[env.actor].act(new EnvObservation(env, env.actor)));
    const record = recordOf(env, 'e2e-tournament', false);
    const scores = env.scores();
    const e = await newPage();
    await e.page.goto(`${suite.base}/#replay=${encodeReplay(record)}`);
    await e.page.waitForFunction((n) => document.getElementById('replay-step')?.textContent === `Step 0 / ${n}`, record.actions.length);
    await e.page.click('#replay-forward');
    await e.page.click('#replay-forward');
    expect(await e.page.textContent('#replay-step')).toBe(`Step 2 / ${record.actions.length}`);
    await e.page.waitForFunction((id) => document.querySelector('button.action.chosen')?.getAttribute('data-action') === String(id), record.actions[2]);
    await e.page.click('#replay-last');
    await e.page.waitForSelector('#final-scores');
    const shown = async () => (await e.page.locator('#final-scores [data-seat]').evaluateAll((rs) => rs.map((r) => Number((r as HTMLElement).dataset.score))));
    expect(await shown()).toEqual(scores);
    await e.page.screenshot({ path: join(SHOTS, 'replay.png') });

    // The same game as game 4 of a games.jsonl as a tournament writes it (eval/game-line.ts), after another game's line.
    await e.page.click('#new-game');
    const result = { index: 4, deal: 4, seed: record.seed, seating: [0, 1, 2], scores, points: scores, winners: [], turns: 0, decisions: record.actions.length, out: [null, null, null], truncated: false, agentDecisions: [0, 0, 0], agentMillis: [0, 0, 0], actions: record.actions };
    const lines = [gameLine({ ...result, index: 9, actions: record.actions.slice(0, 2) }, specs, false, record.ruleset), gameLine(result, specs, false, record.ruleset)];
    await e.page.setInputFiles('#replay-file', { name: 'games.jsonl', mimeType: 'application/json', buffer: Buffer.from(`${lines.join('\n')}\n`) });
    await e.page.fill('#replay-number', '3');
    await e.page.click('#replay-open');
    await e.page.waitForFunction(() => /the file's 2 games have no game 3/.test(document.getElementById('message')?.textContent ?? ''));
    await e.page.fill('#replay-number', '9');
    await e.page.click('#replay-open');
    await e.page.waitForFunction(() => /stops after 2 actions/.test(document.getElementById('message')?.textContent ?? ''));
    await e.page.fill('#replay-number', '4');
    await e.page.click('#replay-open');
    await e.page.waitForFunction((n) => document.getElementById('replay-step')?.textContent === `Step 0 / ${n}`, record.actions.length);
    expect(await e.page.locator('.player .agent').allTextContents()).toEqual(expect.arrayContaining(specs));
    await e.page.click('#replay-last');
    await e.page.waitForSelector('#final-scores');
    expect(await shown()).toEqual(scores);
    // A game of a real tournament's output: its games.jsonl line steps to the scores that line holds.
    const dir = mkdtempSync(join(tmpdir(), 'e2e-tournament-'));
    try {
      await runTournament({ agents: specs, players: 3, games: 3, seed: 'e2e-real', workers: 0, out: dir });
      const written = readFileSync(join(dir, 'games.jsonl'), 'utf8');
      const game = JSON.parse(written.trim().split('\n')[1]) as { index: number; scores: number[] };
      await e.page.click('#new-game');
      await e.page.setInputFiles('#replay-file', { name: 'games.jsonl', mimeType: 'application/json', buffer: Buffer.from(written) });
      await e.page.fill('#replay-number', String(game.index));
      await e.page.click('#replay-open');
      await e.page.waitForSelector('#replay-last');
      await e.page.click('#replay-last');
      await e.page.waitForFunction((want) => {
        const rows = [...document.querySelectorAll('#final-scores [data-seat]')] as HTMLElement[];
        return rows.length === want.length && rows.every((r, i) => Number(r.dataset.score) === want[i]);
      }, game.scores);
      expect(await shown()).toEqual(game.scores);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // A link under other rules is refused with the server's reason.
    await e.page.goto(`${suite.base}/#replay=${encodeReplay({ ...record, ruleset: 'abc' })}`);
    await e.page.waitForFunction(() => /played under ruleset abc/.test(document.getElementById('message')?.textContent ?? ''));
    expect(e.errors.filter((x) => !/status of 422/.test(x))).toEqual([]);
  }, 120_000);
});
