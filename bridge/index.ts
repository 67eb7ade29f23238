/**
 * The bridge: the engine served to another process (the Python package, python/czech_pub)
 * over stdin/stdout, and the vector env it steps on several threads. What the CLI imports of
 * bridge/.
 */
export { serveStdio } from './stdio.ts';
export { makeVectorEnv, parseThreads, type Threads } from './vector-threads.ts';
