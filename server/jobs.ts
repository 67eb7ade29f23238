/**
 * Tournament jobs: catalogue bots only, on worker threads with a heap limit; at most `maxJobs`
 * running (and `maxJobsPerClient` per client), each stopped after `jobSeconds` or by DELETE
 * with the games it finished kept; finished jobs dropped after `jobRetentionMs`. Bots that call
 * a server elsewhere play within their budgets (outside-calls.ts); one that reaches a budget or
 * keeps failing stops the job, which then says which bot and why, never in the outside
 * server's words (those go to the operator's log).
 */
import { randomBytes } from 'node:crypto';
import { jsonSummary, leaderboardMarkdown, runTournament, type TournamentResult } from '../eval/index.ts';
import { BotSpecError, type Catalogue } from './catalogue.ts';
import type { Limits } from './config.ts';
import { ApiError } from './games.ts';
import { faultText, OutsideCalls } from './outside-calls.ts';

export type JobStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'timed-out';

export interface Job {
  id: string;
  client: string;
  status: JobStatus;
  done: number;
  total: number;
  agents: string[];
  createdAt: number;
  finishedAt: number | null;
  result?: TournamentResult;
  error?: string;
  stop: AbortController;
  /** Settles when the job has ended (its workers stopped). */
  ended: Promise<void>;
}

export interface StartJob {
  agents: string[];
  games: number;
  seed: string;
  duplicate?: boolean;
  client: string;
}

type JobLimits = Pick<Limits, 'maxJobs' | 'maxJobsPerClient' | 'maxJobGames' | 'jobWorkers' | 'jobSeconds' | 'jobRetentionMs' | 'maxStoredJobs' | 'workerMemoryMb'>;

export class JobStore {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly limits: JobLimits,
    private readonly catalogue: Catalogue,
    private readonly now: () => number = () => Date.now(),
    private readonly outside: OutsideCalls = new OutsideCalls(),
  ) {}

  start(o: StartJob): Job {
    this.sweep();
    if (this.limits.maxJobs === 0 || this.limits.maxJobsPerClient === 0) throw new ApiError(403, 'this server runs no tournaments (its operator set maxJobs to 0)');
    const running = [...this.jobs.values()].filter((j) => j.status === 'running');
    if (running.length >= this.limits.maxJobs) throw new ApiError(429, `too many tournaments running (limit ${this.limits.maxJobs}); try again later`);
    if (running.filter((j) => j.client === o.client).length >= this.limits.maxJobsPerClient) {
      throw new ApiError(429, `you have ${this.limits.maxJobsPerClient} tournament(s) running, the most one client may have; wait for it or cancel it (DELETE)`);
    }
    if (this.jobs.size >= this.limits.maxStoredJobs) throw new ApiError(429, `too many tournaments kept (limit ${this.limits.maxStoredJobs}); finished ones are dropped after ${Math.round(this.limits.jobRetentionMs / 1000)} s`);
    const choices = o.agents.map((spec, i) => {
      try {
        return this.catalogue.resolve(spec);
      } catch (e) {
        if (e instanceof BotSpecError) throw new ApiError(400, `agents[${i}]: ${e.message}`);
        throw e;
      }
    });
    const id = randomBytes(9).toString('base64url');
    const stop = new AbortController();
    const job: Job = {
      id, client: o.client, status: 'running', done: 0, total: o.games, agents: choices.map((c) => c.label),
      createdAt: this.now(), finishedAt: null, stop, ended: Promise.resolve(),
    };
    const timer = setTimeout(() => stop.abort('timed-out'), this.limits.jobSeconds * 1000);
    timer.unref();
    const budgets = this.outside.tournament(choices, o.client);
    job.ended = runTournament({
      agents: choices.map((c) => c.spec), labels: job.agents, games: o.games, seed: o.seed, duplicate: o.duplicate,
      workers: this.limits.jobWorkers, ruleset: this.catalogue.ruleset, signal: stop.signal,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.workerMemoryMb },
      gates: budgets.gates,
      onGame: (done, total) => Object.assign(job, { done, total }),
    }).then(
      (r) => {
        job.status = stop.signal.aborted ? (stop.signal.reason === 'timed-out' ? 'timed-out' : 'cancelled') : r.stoppedBy !== undefined ? 'failed' : 'done';
        if (r.stoppedBy !== undefined) {
          this.outside.log(`tournament ${id} stopped: ${r.stoppedBy}`);
          job.error = r.stop ? faultText(choices[r.stop.entry].entry, r.stop) : 'a bot stopped the tournament';
        }
        // The summary repeats why it stopped: in the words the client may read.
        job.result = job.error === undefined ? r : { ...r, stoppedBy: job.error };
      },
      (e: Error & { code?: string }) => {
        this.outside.log(`tournament ${id} failed: ${e.stack ?? e.message}`);
        job.status = 'failed';
        job.error = e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `a tournament worker went over its memory limit (${this.limits.workerMemoryMb} MB)` : 'the tournament failed (internal error)';
      },
    ).finally(() => {
      budgets.release();
      clearTimeout(timer);
      job.finishedAt = this.now();
    });
    this.jobs.set(id, job);
    return job;
  }

  get(id: string): Job {
    this.sweep();
    const job = this.jobs.get(id);
    if (!job) throw new ApiError(404, `no tournament '${id}'`);
    return job;
  }

  /** Stops a running job (its finished games are kept and summarised); a finished one is dropped. */
  async cancel(id: string): Promise<Job> {
    const job = this.get(id);
    if (job.status === 'running') {
      job.stop.abort('cancelled');
      await job.ended;
    } else {
      this.jobs.delete(id);
    }
    return job;
  }

  /** What GET shows of a job. */
  report(job: Job) {
    const shown = job.result ? forClients(job.result) : null;
    return {
      id: job.id, status: job.status, done: job.done, total: job.total, agents: job.agents, error: job.error,
      ...(shown ? { summary: jsonSummary(shown), leaderboard: leaderboardMarkdown(shown) } : {}),
    };
  }

  closeAll(): Promise<void[]> {
    const ended = [...this.jobs.values()].map((j) => {
      j.stop.abort('cancelled');
      return j.ended;
    });
    return Promise.all(ended);
  }

  private sweep(): void {
    const t = this.now();
    for (const [id, j] of this.jobs) if (j.finishedAt !== null && t - j.finishedAt > this.limits.jobRetentionMs) this.jobs.delete(id);
  }
}

/**
 * A result as a client may see it: how the operator's model servers were asked (their hosts,
 * the model names they served, the settings sent, what was adapted to them) stays with the
 * server, as the catalogue keeps an entry's spec.
 */
function forClients(r: TournamentResult): TournamentResult {
  return { ...r, usage: r.usage.map((u) => ({ ...u, provenance: null, adaptations: [] })) };
}
