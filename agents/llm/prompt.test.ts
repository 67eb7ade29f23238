import { describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../../env/env.ts';
import { DEFAULT_RULESET } from '../../env/ruleset.ts';
import { randInt, seedRng } from '../../env/rng.ts';
import { EnvObservation } from '../observation.ts';
import { answerJsonSchema, parseAnswer } from './answer.ts';
import { decisionPrompt, systemPrompt } from './prompt.ts';
import { rulesSummary } from './rules.ts';

describe('llm rules summary', () => {
  it('is written from the ruleset, so a changed rule shows in it', () => {
    const text = rulesSummary(DEFAULT_RULESET);
    expect(text).toContain(`at most ${DEFAULT_RULESET.limits.beers} beers`);
    expect(text).toContain(`${DEFAULT_RULESET.shotPoints} points`);
    const changed = rulesSummary({ ...DEFAULT_RULESET, limits: { ...DEFAULT_RULESET.limits, beers: 4 }, shotBonus: [2, 4, 7, 11, 16] });
    expect(changed).toContain('at most 4 beers');
    expect(changed).toContain('2, 4, 7, 11, 16');
    expect(changed).not.toContain('1, 3, 6, 10, 15');
    expect(systemPrompt(DEFAULT_RULESET)).toContain(text);
  });
});

describe('llm decision prompt', () => {
  it('contains nothing the seat may not know: other hands and the deck can change, the prompt does not', () => {
    const rng = seedRng('prompt');
    for (let g = 0; g < 20; g++) {
      const env = new CzechPubEnv({ seed: `prompt/${g}`, players: 4, log: true });
      const steps = randInt(rng, 60);
      for (let i = 0; i < steps && !env.done; i++) {
        const legal = env.legalActions();
        env.step(legal[randInt(rng, legal.length)]);
      }
      if (env.done) continue;
      const seat = env.actor;
      const obs = new EnvObservation(env, seat);
      const prompt = decisionPrompt(obs);
      expect(prompt).toContain('Your legal actions:');
      for (let k = 0; k < 3; k++) {
        // Everything this seat cannot see, dealt anew. A resampled copy keeps no event log, so
        // the seat's own events (filtered per seat by the env, tested there) are carried over.
        const other = new EnvObservation(env.resample(seat, `other/${g}/${k}`), seat);
        expect(decisionPrompt({ ...obs, seat, players: obs.players, legalActions: other.legalActions, text: other.text, view: other.view, encoding: other.encoding, mask: other.mask, events: obs.events })).toBe(prompt);
      }
    }
  });
});

describe('llm answers', () => {
  const legal = [{ id: 3, words: 'play Beer' }, { id: 17, words: "play That's my order at player 1 (the player 3 seats to your left)" }, { id: 64, words: 'stop discarding and draw up' }];
  it('accepts structured JSON naming a listed id, also fenced, by id, digit string or words', () => {
    expect(parseAnswer('{"action": 17, "reason": "cheap points"}', legal)).toEqual({ ok: true, action: 17, reason: 'cheap points', plainText: false });
    expect(parseAnswer('```json\n{"action": 64}\n```', legal)).toMatchObject({ ok: true, action: 64 });
    expect(parseAnswer('{"action": "64"}', legal)).toMatchObject({ ok: true, action: 64 });
    expect(parseAnswer('{"action": "PLAY beer"}', legal)).toMatchObject({ ok: true, action: 3 });
  });
  it('accepts plain text that is exactly an id, the words or "id: words", case, whitespace and digits of other scripts aside', () => {
    expect(parseAnswer('17', legal)).toEqual({ ok: true, action: 17, plainText: true });
    expect(parseAnswer('  Stop   discarding and DRAW up ', legal)).toEqual({ ok: true, action: 64, plainText: true });
    expect(parseAnswer('3: play beer', legal)).toEqual({ ok: true, action: 3, plainText: true });
    expect(parseAnswer('١٧', legal)).toEqual({ ok: true, action: 17, plainText: true });
    expect(parseAnswer('６４', legal)).toEqual({ ok: true, action: 64, plainText: true });
    expect(parseAnswer('३', legal)).toEqual({ ok: true, action: 3, plainText: true });
  });
  it('never takes a number inside words for an id', () => {
    // The model named action 17 in words; its "1" and "3" are players, not ids.
    expect(parseAnswer("I'll play That's my order at player 1 (the player 3 seats to your left)", legal)).toMatchObject({ ok: false, error: expect.stringContaining('does not name one listed action') });
    expect(parseAnswer('I play 17: Beer.', legal)).toMatchObject({ ok: false });
    expect(parseAnswer('I choose 64', legal)).toMatchObject({ ok: false });
  });
  it('refuses illegal ids, garbage, empty answers and answers naming two actions, with a reason', () => {
    expect(parseAnswer('{"action": 5}', legal)).toMatchObject({ ok: false, error: expect.stringContaining('5 is not one of the listed action ids') });
    expect(parseAnswer('{"action": "seventeen"}', legal)).toMatchObject({ ok: false, error: expect.stringContaining('not one of the listed') });
    expect(parseAnswer('{"move": 17}', legal)).toMatchObject({ ok: false, error: expect.stringContaining('no "action"') });
    expect(parseAnswer('I like turtles', legal)).toMatchObject({ ok: false, error: expect.stringContaining('does not name one listed action') });
    expect(parseAnswer('', legal)).toMatchObject({ ok: false, error: 'the answer was empty' });
    expect(parseAnswer('either 3 or 17', legal)).toMatchObject({ ok: false });
    expect(parseAnswer('Like {"action": 3}. My answer: {"action": 17}', legal)).toMatchObject({ ok: false, error: expect.stringContaining('names several actions (3, 17)') });
  });
  it('reads only the text outside reasoning; objects that name the same action agree', () => {
    expect(parseAnswer('<think>{"action": 3} no, {"action": 64}</think>{"action": 17}', legal)).toMatchObject({ ok: true, action: 17 });
    expect(parseAnswer('<thinking>3</thinking> 64', legal)).toEqual({ ok: true, action: 64, plainText: true });
    expect(parseAnswer('so 3 then\n</think>\n{"action": 64}', legal)).toMatchObject({ ok: true, action: 64 });
    expect(parseAnswer('My answer: {"action": 17, "reason": "a } in a string"}', legal)).toMatchObject({ ok: true, action: 17, reason: 'a } in a string' });
    expect(parseAnswer('{"note": 1} {"action": 64} {"other": 2}', legal)).toMatchObject({ ok: true, action: 64 });
    expect(parseAnswer('{"action": 64} {"action": "64"}', legal)).toMatchObject({ ok: true, action: 64 });
  });
  it('calls an answer that ends inside reasoning or JSON truncated, and reads no number from it', () => {
    expect(parseAnswer('<think>I play 17 because', legal)).toMatchObject({ ok: false, truncated: true, error: expect.stringContaining('inside its reasoning') });
    expect(parseAnswer('{"reason": "17 is cheap, 3 is', legal)).toMatchObject({ ok: false, truncated: true, error: expect.stringContaining('cut off') });
    expect(parseAnswer('{"action": 3} {"action": 17, "reas', legal)).toMatchObject({ ok: false, truncated: true });
  });
  it('sends a JSON schema with the action as a required integer', () => {
    const s = answerJsonSchema() as { properties: Record<string, { type: string }>; required: string[] };
    expect(s.properties.action.type).toBe('integer');
    expect(s.required).toEqual(['action']);
  });
});
