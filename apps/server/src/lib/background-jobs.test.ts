import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { BackgroundJobs } from './background-jobs';

function fakeLog() {
  const errors: Array<{ job?: string; msg: string }> = [];
  const log = { error: (obj: { job?: string }, msg: string) => errors.push({ job: obj.job, msg }) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

describe('BackgroundJobs', () => {
  afterEach(() => vi.useRealTimers());

  it('starts in order and stops in reverse order', async () => {
    const seen: string[] = [];
    const jobs = new BackgroundJobs(fakeLog().log);
    for (const name of ['a', 'b', 'c']) jobs.add({ name, start: () => void seen.push(`start ${name}`), stop: () => void seen.push(`stop ${name}`) });
    await jobs.startAll();
    await jobs.stopAll();
    expect(seen).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
    expect(jobs.names()).toEqual(['a', 'b', 'c']);
  });

  it('a job that fails to stop is logged and the others still stop; a second stopAll does nothing', async () => {
    const { log, errors } = fakeLog();
    const stopped: string[] = [];
    const jobs = new BackgroundJobs(log)
      .add({ name: 'first', start: () => undefined, stop: () => void stopped.push('first') })
      .add({ name: 'broken', start: () => undefined, stop: () => Promise.reject(new Error('disk full')) });
    await jobs.startAll();
    await jobs.stopAll();
    await jobs.stopAll();
    expect(stopped).toEqual(['first']);
    expect(errors).toEqual([{ job: 'broken', msg: 'background job did not stop cleanly' }]);
  });

  it('a periodic task runs every interval, never overlaps itself, logs failures and keeps going', async () => {
    vi.useFakeTimers();
    const { log, errors } = fakeLog();
    let runs = 0;
    let release: () => void = () => undefined;
    const jobs = new BackgroundJobs(log).every('slow', 1_000, () => {
      runs++;
      if (runs === 1) return new Promise<void>((r) => (release = r));
      if (runs === 2) throw new Error('boom');
      return undefined;
    });
    await jobs.startAll();
    await vi.advanceTimersByTimeAsync(3_500); // three ticks, but the first run is still going
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(errors).toEqual([{ job: 'slow', msg: 'background job failed' }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(3);
    await jobs.stopAll();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
  });

  it('stop waits for a run in progress, then runs the final step', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const jobs = new BackgroundJobs(fakeLog().log).every(
      'flush',
      1_000,
      () => new Promise<void>((r) => (release = () => (seen.push('run done'), r()))),
      { onStop: () => void seen.push('final flush') },
    );
    await jobs.startAll();
    await vi.advanceTimersByTimeAsync(1_000);
    const stopping = jobs.stopAll();
    release();
    await stopping;
    expect(seen).toEqual(['run done', 'final flush']);
  });

  it('a periodic task may start after its own first delay, with a first step, and be asked to end a run early', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const jobs = new BackgroundJobs(fakeLog().log).every(
      'prune',
      10_000,
      () => new Promise<void>((r) => (seen.push('run'), (release = r))),
      { firstAfterMs: 500, onStart: () => void seen.push('armed'), interrupt: () => void (seen.push('interrupted'), release()), onStop: () => void seen.push('stopped') },
    );
    await jobs.startAll();
    await vi.advanceTimersByTimeAsync(499);
    expect(seen).toEqual(['armed']);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual(['armed', 'run']);
    await jobs.stopAll();
    expect(seen).toEqual(['armed', 'run', 'interrupted', 'stopped']);
  });
});
