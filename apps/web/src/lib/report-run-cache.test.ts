import { describe, expect, it } from 'vitest';
import type { ReportRun } from '@agua/shared';
import { applyReportRunUpdate, isRunPending, type ReportRunPages } from './report-run-cache';

const run = (id: string, createdAt: string, over: Partial<ReportRun> = {}): ReportRun => ({
  id,
  reportId: 'r1',
  reportName: 'Diario',
  kind: 'daily',
  from: '2026-11-27',
  to: '2026-11-27',
  status: 'queued',
  files: [],
  error: null,
  requestedBy: null,
  send: false,
  createdAt,
  finishedAt: null,
  ...over,
});
const pages = (...lists: Array<[ReportRun[], string | null]>): ReportRunPages => ({
  pages: lists.map(([items, nextCursor]) => ({ items, nextCursor })),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i}`)),
});
const ids = (data: ReportRunPages) => data.pages.map((p) => p.items.map((r) => r.id));

describe('run lists from report_run.updated', () => {
  const a = run('a', '2026-11-20T10:00:00.000Z', { status: 'done' });
  const b = run('b', '2026-11-22T10:00:00.000Z', { status: 'done' });

  it('puts a new run first, newest first', () => {
    expect(ids(applyReportRunUpdate(pages([[b, a], null]), {}, run('c', '2026-11-24T08:00:00.000Z')))).toEqual([['c', 'b', 'a']]);
  });

  it('replaces a known run where it is (queued → done)', () => {
    const queued = run('b', b.createdAt);
    const done = { ...queued, status: 'done' as const };
    const next = applyReportRunUpdate(pages([[queued, a], null]), {}, done);
    expect(ids(next)).toEqual([['b', 'a']]);
    expect(next.pages[0]!.items[0]).toBe(done);
  });

  it("keeps a finished run when the 202 that queued it arrives after the frames", () => {
    const done = run('b', b.createdAt, { status: 'done' });
    const data = pages([[done, a], null]);
    expect(applyReportRunUpdate(data, {}, run('b', b.createdAt, { status: 'queued' })).pages[0]!.items[0]).toBe(done);
    expect(applyReportRunUpdate(pages([[run('b', b.createdAt, { status: 'running' })], null]), {}, run('b', b.createdAt)).pages[0]!.items[0]!.status).toBe('running');
  });

  it("leaves out another report's run", () => {
    const data = pages([[b, a], null]);
    expect(applyReportRunUpdate(data, { reportId: 'r2' }, run('c', '2026-11-24T08:00:00.000Z'))).toBe(data);
    expect(ids(applyReportRunUpdate(data, { reportId: 'r1' }, run('c', '2026-11-24T08:00:00.000Z')))).toEqual([['c', 'b', 'a']]);
  });

  it('keeps a run older than everything loaded for the next page when more pages wait', () => {
    const old = run('z', '2026-11-01T10:00:00.000Z');
    expect(ids(applyReportRunUpdate(pages([[b], 'c1']), {}, old))).toEqual([['b']]);
    expect(ids(applyReportRunUpdate(pages([[b], null]), {}, old))).toEqual([['b', 'z']]);
    expect(ids(applyReportRunUpdate(pages([[], null]), {}, old))).toEqual([['z']]);
  });

  it('calls queued and running runs pending', () => {
    expect(isRunPending({ status: 'queued' })).toBe(true);
    expect(isRunPending({ status: 'running' })).toBe(true);
    expect(isRunPending({ status: 'done' })).toBe(false);
    expect(isRunPending({ status: 'failed' })).toBe(false);
  });
});
