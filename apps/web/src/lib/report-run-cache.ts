import type { ReportRun, ReportRunPage } from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/** The server-side filter of a run list: one report's runs, or every run. */
export interface ReportRunFilters {
  reportId?: string;
}

/** What an infinite query of GET /report-runs keeps: its pages and the cursor each was fetched with. */
export interface ReportRunPages {
  pages: ReportRunPage[];
  pageParams: unknown[];
}

export function matchesReportRunFilters(run: ReportRun, filters: ReportRunFilters): boolean {
  return !filters.reportId || run.reportId === filters.reportId;
}

/** The server's order: newest first, then id descending. */
function newerFirst(a: ReportRun, b: ReportRun): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** How far a run has got: it only moves forward (queued → running → done or failed). */
const STAGE: Record<ReportRun['status'], number> = { queued: 0, running: 1, done: 2, failed: 2 };

/**
 * The loaded pages after a `report_run.updated` frame (or a 'Generar ahora' answer): a known run is
 * replaced where it is, unless what came is older than what is shown (a quick run's frames can
 * overtake the 202 that queued it); a new one of the filter is put in order, unless it sorts after
 * everything loaded while more pages wait (then 'Cargar más' brings it in its place).
 */
export function applyReportRunUpdate(data: ReportRunPages, filters: ReportRunFilters, run: ReportRun): ReportRunPages {
  if (!matchesReportRunFilters(run, filters)) return data;
  let found = false;
  const pages = data.pages.map((page) => {
    const index = page.items.findIndex((item) => item.id === run.id);
    if (index === -1) return page;
    found = true;
    if (STAGE[run.status] < STAGE[page.items[index]!.status]) return page;
    const items = page.items.slice();
    items[index] = run;
    return { ...page, items };
  });
  return { ...data, pages: found ? pages : insertInOrder(pages, run) };
}

function insertInOrder(pages: ReportRunPage[], run: ReportRun): ReportRunPage[] {
  const index = pages.findIndex((page) => page.items.some((item) => newerFirst(run, item) < 0));
  const lastPage = pages.at(-1);
  if (index === -1) {
    // Older than everything loaded: it belongs at the end only when the list is complete.
    if (!lastPage || lastPage.nextCursor !== null) return pages;
    return [...pages.slice(0, -1), { ...lastPage, items: [...lastPage.items, run] }];
  }
  return pages.map((page, i) => (i === index ? { ...page, items: [...page.items, run].sort(newerFirst) } : page));
}

/** Runs into every loaded run list (each with its filter, the last part of its key). */
export function storeReportRuns(runs: ReportRun[]): void {
  for (const [key, data] of queryClient.getQueriesData<ReportRunPages>({ queryKey: queryKeys.reportRuns })) {
    if (!data) continue;
    const filters = (key[1] ?? {}) as ReportRunFilters;
    queryClient.setQueryData<ReportRunPages>(key, runs.reduce((pages, run) => applyReportRunUpdate(pages, filters, run), data));
  }
}

/** Whether a run is still being made: its list is asked again until it ends (the socket's fallback). */
export const isRunPending = (run: Pick<ReportRun, 'status'>) => run.status === 'queued' || run.status === 'running';
