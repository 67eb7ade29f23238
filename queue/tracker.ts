/**
 * The submitting side's book of its jobs on the queue: what it enqueued and has not yet had
 * back. A job's result arrives by BullMQ's completion event, or, for events missed while Redis
 * was away, by `sweep`, which looks every outstanding job up. A job that vanished (Redis
 * restarted without persistence) is enqueued again, after its `prepare` step (which puts back
 * whatever else the job needs in Redis); a job that failed on a worker is reported once, with
 * the worker's message. Each result is handed over once, however often it is seen.
 */
import { Job, Queue, QueueEvents } from 'bullmq';
import { GAMES_QUEUE, redisOptions } from './connection.ts';

export interface TrackerOptions<R> {
  /** Where a lost (and regained) connection to Redis is told, once per outage. */
  log?: (line: string) => void;
  onResult(id: string, value: R): void;
  onFailure(id: string, reason: string): void;
}

interface Entry<D> {
  name: string;
  data: D;
  prepare?: () => Promise<void>;
}

export class JobTracker<D, R> {
  readonly queue: Queue<D, R>;
  private readonly events: QueueEvents;
  private readonly outstanding = new Map<string, Entry<D>>();
  private lost = false;

  constructor(url: string, private readonly o: TrackerOptions<R>) {
    const connection = redisOptions(url);
    this.queue = new Queue<D, R>(GAMES_QUEUE, { connection });
    this.events = new QueueEvents(GAMES_QUEUE, { connection });
    // ioredis reconnects by itself; without listeners BullMQ prints every failed attempt.
    const onError = (e: Error) => {
      if (!this.lost) o.log?.(`queue connection: ${e.message} (retrying)`);
      this.lost = true;
    };
    this.queue.on('error', onError);
    this.events.on('error', onError);
    this.events.on('completed', ({ jobId }) => {
      this.regained();
      if (this.outstanding.has(jobId)) void this.look(jobId).catch(() => {});
    });
    this.events.on('failed', ({ jobId, failedReason }) => {
      if (this.outstanding.has(jobId)) this.o.onFailure(jobId, failedReason);
    });
  }

  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  get size(): number {
    return this.outstanding.size;
  }

  has(id: string): boolean {
    return this.outstanding.has(id);
  }

  /** Enqueues a job under `id` (after `prepare`, which is run again whenever it is re-enqueued). */
  async add(id: string, name: string, data: D, prepare?: () => Promise<void>): Promise<void> {
    const entry = { name, data, prepare };
    this.outstanding.set(id, entry);
    await this.enqueue(id, entry);
  }

  private async enqueue(id: string, e: Entry<D>): Promise<void> {
    await e.prepare?.();
    // BullMQ's types want the name to be one of the data's declared names; ours are free.
    await (this.queue as Queue).add(e.name, e.data, {
      jobId: id,
      attempts: 1,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
  }

  private regained(): void {
    if (this.lost) this.o.log?.('queue connection: back');
    this.lost = false;
  }

  /** Looks up one job: hands its result over, reports its failure, or enqueues it again if Redis lost it. */
  async look(id: string): Promise<void> {
    const job = await Job.fromId<D, R>(this.queue, id);
    this.regained();
    const entry = this.outstanding.get(id);
    if (!entry) return;
    if (!job) {
      await this.enqueue(id, entry);
      return;
    }
    if (job.finishedOn && job.returnvalue) {
      this.outstanding.delete(id);
      this.o.onResult(id, job.returnvalue);
    } else if (job.failedReason) this.o.onFailure(id, job.failedReason);
  }

  /** Looks up every outstanding job (for events missed while Redis was away); `stop` ends it early. */
  async sweep(stop: () => boolean = () => false): Promise<void> {
    for (const id of [...this.outstanding.keys()]) {
      if (stop()) break;
      await this.look(id);
    }
  }

  /** Takes jobs off the queue (all outstanding ones by default): what waits is removed, one being played finishes and is ignored. */
  async drop(ids: Iterable<string> = [...this.outstanding.keys()]): Promise<void> {
    const list = [...ids].filter((id) => this.outstanding.delete(id));
    await Promise.all(list.map((id) => this.queue.remove(id).catch(() => 0)));
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.close();
  }
}
