/**
 * Every stop the same: Ctrl-C (SIGINT), SIGTERM (what `timeout`, systemd and container
 * runtimes send) and SIGHUP (the terminal closed) all stop a long command cleanly, through one
 * handler. The first of them stops it; then none is handled, so a second one ends the process
 * at once, as Node does by default.
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const satisfies readonly NodeJS.Signals[];

/** Calls `handler` at the first stop signal; returns the function that stops listening. */
export function onStopSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  const listener = (signal: NodeJS.Signals) => {
    remove();
    handler(signal);
  };
  const remove = () => {
    for (const s of STOP_SIGNALS) process.removeListener(s, listener);
  };
  for (const s of STOP_SIGNALS) process.on(s, listener);
  return remove;
}

/** 'Interrupted', naming the signal when it is not Ctrl-C's (it came from elsewhere: a timeout, a service manager). */
export function interrupted(signal: NodeJS.Signals): string {
  return signal === 'SIGINT' ? 'Interrupted' : `Interrupted (${signal})`;
}
