/**
 * The simplest model for tests of how llm-bench runs (stops, kills, locks): a server that
 * answers every decision with its first legal action. Its two parts, for servers that differ
 * in how and when they answer.
 */

/** The legal ids the request's last decision prompt lists; [0] for the preflight, which lists none and asks for action 0. */
export function legalIds(requestBody: string): number[] {
  const messages = (JSON.parse(requestBody) as { messages: { content: string }[] }).messages;
  const user = messages.filter((m) => m.content.includes('Your legal actions:')).pop()?.content;
  return user === undefined ? [0] : [...user.split('Your legal actions:')[1].matchAll(/^\s+(\d+): /gm)].map((m) => Number(m[1]));
}

/** A chat completion playing the first of `legal`, billed 100 prompt and 5 completion tokens. */
export function firstLegalCompletion(legal: readonly number[], id = 'x'): string {
  return JSON.stringify({
    id, object: 'chat.completion', created: 0, model: 'fake',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify({ action: legal[0] }) } }],
    usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
  });
}

/**
 * The usage figures that count calls, and the costs made of them: a stopped or killed and
 * resumed run made more calls (a second preflight, games begun again) than one never stopped.
 */
const CALL_COUNTS = new Set([
  'requests', 'unfinishedRequests', 'requestsPerGame', 'promptTokens', 'completionTokens', 'usageReports', 'replies', 'latencyMedianMs', 'latencyP95Ms',
  'estimatedCost', 'costPerGame', 'costPerDecision', 'costPerWin',
]);

/** A results.json without what differs between two runs of the same games: times, and counts of calls. */
export function sameGamesPart(resultsJson: string): Record<string, unknown> {
  const { elapsedSec: _e, gamesPerSec: _g, startedAt: _s, finishedAt: _f, ...r } = JSON.parse(resultsJson);
  return {
    ...r,
    summary: { ...r.summary, agents: r.summary.agents.map(({ msPerDecision: _m, ...a }: Record<string, unknown>) => a) },
    usage: r.usage.map((u: Record<string, unknown>) => Object.fromEntries(Object.entries(u).filter(([k]) => !CALL_COUNTS.has(k)))),
  };
}
