import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite in three layers, each a project of this one configuration (`vitest run` runs all
 * three; `vitest run --project unit` one of them). The rule, by what a test starts:
 *
 * - e2e: the browser tests, every `*.e2e.test.ts` (they start a server and Chromium).
 * - integration: the test files named in INTEGRATION below, each with what it starts: a server
 *   listening on a socket (fastify in this process, or `czech-pub serve` in a child), another
 *   process (the bridge, Python, the CLI, redis-server), worker threads (the server's bot pool,
 *   a tournament or vector env on threads), Redis or a training run; and the slow ones, files
 *   that start nothing but take over 2 s on their own (long sweeps of random games).
 * - unit: every other `*.test.ts`, the default for a new test beside its module. A unit test
 *   starts none of those and runs fast (`npm run test:unit` in under a minute on 2 cores).
 *   test/test-projects.test.ts checks that every test file is in exactly one project and that
 *   no unit test file imports or calls a start-up API (its FORBIDDEN_IMPORTS and _CALLS), and
 *   test/helpers/unit-guard.ts makes child processes, worker threads and listen() throw while
 *   the unit project runs. A test that needs one goes into INTEGRATION, saying what it starts.
 */
export const E2E = ['**/*.e2e.test.ts'];

/** Test files of the integration layer, and what each starts. */
export const INTEGRATION: Record<string, string> = {
  'agents/llm/llm-agent.test.ts': 'a fake model server listening on a socket',
  'agents/llm/reply-fetch.test.ts': 'a fake model server listening on a socket',
  'agents/llm/calls.test.ts': 'a fake model server listening on a socket',
  'test/support/fake-model-server.test.ts': 'a fake model server listening on a socket',
  'agents/outside-calls.test.ts': 'worker threads racing for one gate',
  'bridge/bridge.test.ts': 'bridge processes (czech-pub bridge, python)',
  'bridge/vector-threads.test.ts': 'the vector env on worker threads',
  'cli/interrupt.test.ts': 'a czech-pub tournament in a child process',
  'cli/llm-bench-replies.test.ts': 'a fake model server listening on a socket',
  'cli/llm-bench-stop.test.ts': 'a fake model server listening on a socket, llm-bench in a child process',
  'cli/run-folder-writers.test.ts': 'a fake model server listening on a socket, llm-bench in child processes',
  'cli/llm-bench-kills.test.ts': 'a fake model server listening on a socket, llm-bench in child processes killed and resumed',
  'cli/report-titles.test.ts': 'a fake model server listening on a socket',
  'cli/train.test.ts': 'a training run from the command line',
  'cli/exploit.test.ts': 'two short training runs and their evaluation tournaments from the command line',
  'cli/recipe.test.ts': 'slow: ~8 s of two short training runs (in this thread) and their evaluation tournaments',
  'cli/usage-errors.test.ts': 'a fake model server listening on a socket, python',
  'eval/game-line.test.ts': 'a tournament on worker threads',
  'eval/highlights.test.ts': 'a tournament on worker threads',
  'eval/tournament.test.ts': 'tournaments on worker threads',
  'eval/ts-worker.test.ts': 'worker threads of TypeScript modules, their bundles made by esbuild in a child process',
  'python/python.test.ts': 'Python and bridge processes',
  'server/api-client.test.ts': 'the server listening, its bot pool\'s worker threads',
  'server/app.test.ts': 'the server listening, its bot pool\'s worker threads',
  'server/bot-pool.test.ts': 'bot pool worker threads',
  'server/budgets.test.ts': 'the server listening, worker threads',
  'env/engine/choice-preview-seats.test.ts': 'slow: some 5 s of random games, every legal choice previewed and played',
  'server/hint.test.ts': 'slow: some 3 s of games with hints at 2 to 6 players',
  'server/edges.test.ts': 'the server listening, its bot pool\'s worker threads',
  'server/openapi.test.ts': 'the server (built, not listening) for its OpenAPI document',
  'server/operator.test.ts': 'the server listening, its bot pool\'s worker threads',
  'server/restart.test.ts': 'servers built one after another on one state dir (not listening), their bot pools',
  'server/replays.test.ts': 'the server and its bot pool\'s worker threads',
  'server/settings.test.ts': 'the server and its bot pool\'s worker threads',
  'server/tables.test.ts': 'the server listening, its bot pool\'s worker threads',
  'test/custom-ruleset.test.ts': 'the server and its bot pool\'s worker threads',
  'test/hostile-budget.test.ts': 'czech-pub serve in child processes, a listening server',
  'test/hostile-clients.test.ts': 'czech-pub serve in child processes',
  'test/fair-shares.test.ts': 'the server listening, its bot pool\'s worker threads, fake outside servers listening',
  'test/hostile.test.ts': 'czech-pub serve in child processes, listening servers',
  'test/llm-replies.property.test.ts': 'fake model servers listening on a socket (one per seed)',
  'test/queue.test.ts': 'redis-server and queue worker processes, training runs',
  'test/wheel.test.ts': 'pip building the Python wheel (esbuild bundling the engine), a venv, Python and the bundled engine (worker threads) in child processes',
  'test/package.test.ts': 'npm pack (tsc building dist/), npm install of the tarball into a temporary project, the installed CLI in child processes',
  'test/readme-examples.test.ts': 'slow: every czech-pub command the README quotes parsed and its agents made, the models loaded (8 s on a loaded machine)',
  'test/doc-examples.test.ts': 'the documents\' runnable blocks in a copy of the checkout: the CLI, tsx, pip and Python in child processes, czech-pub serve listening',
  'training/train.test.ts': 'training runs',
  'training/options.test.ts': 'the train command (main(["train", ...]): --help and refused values; a run would start one)',
  'test/conformance.test.ts': 'slow: ~33 s of conformance games',
  'agents/ppo/search.test.ts': 'slow: ~19 s of searches',
  'env/vector.test.ts': 'slow: ~3 s of vector env games',
  'test/leak.test.ts': 'slow: ~12 s of twin games',
  'env/observation/visible.test.ts': 'slow: ~3 s of random games',
  'eval/exact/exact.test.ts': 'slow: ~6 s of walking the micro game tree, 20,000 seeded games and CFR+',
  'cli/exact.test.ts': 'slow: ~5 s of walking the micro game tree twice and solving it',
  'cli/exploit-search.test.ts': 'slow: ~3.5 s of best-response tournaments (in this thread)',
  'agents/beliefs/belief.test.ts': 'slow: ~2.3 s of beliefs weighed over seeded games',
  'agents/scripted/scripted.test.ts': 'slow: ~8 s of games at 2 to 6 players',
  'server/view-schema.test.ts': 'slow: ~5 s of views parsed',
  'env/engine/preview.test.ts': 'slow: ~4 s of random games',
  'env/engine/choice-preview.test.ts': 'slow: ~10 s of random games, every legal choice previewed and played',
  'env/observation/channel.test.ts': 'slow: ~3 s of random games',
  'agents/ismcts/ismcts.test.ts': 'slow: ~4 s of searches',
  'training/collect.test.ts': 'slow: ~4 s of rollouts',
  'cli/distill.test.ts': 'slow: ~13 s of games recorded and a net distilled from them, twice',
  'training/distill.test.ts': 'slow: ~11 s of games recorded and nets distilled',
  'agents/ismcts/best-response.test.ts': 'slow: ~6 s of best-response searches',
  'agents/clairvoyant.test.ts': 'slow: ~3 s of searches of the true game',
};

/**
 * With CZECH_PUB_TEST_REPORT=FILE, vitest also writes its JSON report there (each file's start
 * and end): `npx tsx scripts/slowest-tests.ts --from FILE` names where the time went, for a run
 * made any way (`CZECH_PUB_TEST_REPORT=/tmp/r.json bash .ci/run` on a fresh clone).
 */
const REPORT = process.env.CZECH_PUB_TEST_REPORT;

/** Integration files at once: three for two cores (vitest caps a percentage at the cores). */
const INTEGRATION_WORKERS = Math.ceil(availableParallelism() * 1.5);

/** Every project excludes these, as the single run of before the layers did. */
const EXCLUDE = ['**/node_modules/**'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // A test file per core at once (vitest's default leaves one core free). The integration
    // layer runs three files for two cores (its own group, below).
    maxWorkers: '100%',
    // A worker's files share its loaded modules instead of each importing the project anew:
    // the engine, the server and TensorFlow.js were 136 of the unit and integration layers'
    // 620 s (import 136 s -> 13 s). So no test may count on a module's state being fresh: a
    // registry another file added to, a cache another filled (agents/registry.test.ts).
    isolate: false,
    ...(REPORT ? { reporters: ['default', 'json'], outputFile: { json: REPORT } } : {}),
    projects: [
      // The layers run one after another (sequence.groupOrder): the unit files first (a failure
      // there shows in seconds); then the browser files, a file a core, for Chromium keeps a core
      // busy; then the integration files, three for two cores, for many of them wait on fake
      // model servers and child processes (alone on two cores: 396 s at two at once, 359 s at
      // three).
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: [...EXCLUDE, ...E2E, ...Object.keys(INTEGRATION)],
          setupFiles: ['test/helpers/unit-guard.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: Object.keys(INTEGRATION), exclude: EXCLUDE, maxWorkers: INTEGRATION_WORKERS, sequence: { groupOrder: 2 } },
      },
      {
        extends: true,
        test: { name: 'e2e', include: E2E, exclude: EXCLUDE, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
