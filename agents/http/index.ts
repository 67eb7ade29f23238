/** Registers the http agent: `http:<url>[:timeoutMs=N]`. */
import { parseOptions, registerAgent } from '../registry.ts';
import { HTTP_DEFAULTS, HttpAgent } from './http-agent.ts';

export { HttpAgent } from './http-agent.ts';

registerAgent('http', {
  description: 'a bot served elsewhere: http:<url of a POST endpoint like /v1/bots/:spec/act>[:timeoutMs=2000]',
  create: (spec, options) => {
    // The URL carries colons: the options are the trailing parts of the form key=value.
    const parts = options.split(':');
    let i = parts.length;
    while (i > 0 && /^[a-zA-Z]+=/.test(parts[i - 1])) i--;
    const url = parts.slice(0, i).join(':');
    if (!/^https?:\/\//.test(url)) throw new Error(`agent '${spec}': give the bot's URL, e.g. http:http://127.0.0.1:8787/v1/bots/heuristic/act`);
    const o = parseOptions(spec, parts.slice(i).join(':'), HTTP_DEFAULTS);
    if (!(o.timeoutMs > 0)) throw new Error(`agent '${spec}': option 'timeoutMs' must be > 0`);
    return new HttpAgent(spec, url, o.timeoutMs);
  },
});
