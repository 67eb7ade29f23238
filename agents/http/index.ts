/** The http agent: `http:<url>[:timeoutMs=N]`. */
import { parseOptions, type AgentFamily } from '../registry.ts';
import { HTTP_DEFAULTS, HttpAgent } from './http-agent.ts';

export { HttpAgent, httpBotBody } from './http-agent.ts';

/** The URL and the options of an http spec (the URL carries colons: options are the trailing key=value parts). */
function splitHttp(options: string): { url: string; rest: string[] } {
  const parts = options.split(':');
  let i = parts.length;
  while (i > 0 && /^[a-zA-Z]+=/.test(parts[i - 1])) i--;
  return { url: parts.slice(0, i).join(':'), rest: parts.slice(i) };
}

export const HTTP_AGENTS = {
  http: {
    // The bot's host, not its whole address.
    label: (options) => {
      const { url } = splitHttp(options);
      let host = '?';
      try {
        host = new URL(url).host;
      } catch {
        // an unusable URL is refused by create
      }
      return `http:${host}`;
    },
    description: 'a bot served elsewhere: http:<url of a POST endpoint like /v1/bots/:spec/act>[:timeoutMs=2000]',
    outside: true,
    create: (spec, options) => {
      const { url, rest } = splitHttp(options);
      if (!/^https?:\/\//.test(url)) throw new Error(`agent '${spec}': give the bot's URL, e.g. http:http://127.0.0.1:8787/v1/bots/heuristic/act`);
      const o = parseOptions(spec, rest.join(':'), HTTP_DEFAULTS);
      if (!(o.timeoutMs > 0)) throw new Error(`agent '${spec}': option 'timeoutMs' must be > 0`);
      return new HttpAgent(spec, url, o.timeoutMs);
    },
  },
} satisfies AgentFamily;
