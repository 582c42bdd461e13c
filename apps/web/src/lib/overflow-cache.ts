import type { OverflowEvent } from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/** A page of GET /overflow-events. */
export interface OverflowPage {
  items: OverflowEvent[];
  nextCursor: string | null;
}

/** The server-side filters of the overflow lists and counts; times are ISO 8601, `to` exclusive. */
export interface OverflowFilters {
  deviceId?: string;
  from?: string;
  to?: string;
}

/** What an infinite query keeps: its pages and the cursor each was fetched with. */
export interface OverflowPages {
  pages: OverflowPage[];
  pageParams: unknown[];
}

/** Whether an event belongs to a list of these filters (the server filters on the start). */
export function matchesOverflowFilters(event: OverflowEvent, filters: OverflowFilters): boolean {
  if (filters.deviceId && event.deviceId !== filters.deviceId) return false;
  const startedAt = Date.parse(event.startedAt);
  if (filters.from && startedAt < Date.parse(filters.from)) return false;
  if (filters.to && startedAt >= Date.parse(filters.to)) return false;
  return true;
}

/** The server's order: newest start first, then id descending. */
function newerFirst(a: OverflowEvent, b: OverflowEvent): number {
  return Date.parse(b.startedAt) - Date.parse(a.startedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * Another event of the same device that this one now covers: a late batch merged the two on the
 * server (docs/water.md "Overflow events"), which sends only the survivor. A device's events never
 * overlap, so one starting inside this one's span is gone.
 */
function mergedInto(event: OverflowEvent, other: OverflowEvent): boolean {
  if (other.id === event.id || other.deviceId !== event.deviceId) return false;
  const start = Date.parse(other.startedAt);
  return start >= Date.parse(event.startedAt) && (event.endedAt === null || start <= Date.parse(event.endedAt));
}

/**
 * The loaded pages after an `overflow.updated` frame: a known event is replaced where it is; a new
 * one that matches the filters is put in order, unless it sorts after everything loaded while more
 * pages wait (then 'Cargar más' brings it in its place). Events it swallowed leave.
 */
export function applyOverflowUpdate(data: OverflowPages, filters: OverflowFilters, event: OverflowEvent): OverflowPages {
  const matches = matchesOverflowFilters(event, filters);
  let found = false;
  let pages = data.pages.map((page) => {
    const items = page.items.flatMap((item) => {
      if (item.id === event.id) {
        found = true;
        return matches ? [event] : [];
      }
      return mergedInto(event, item) ? [] : [item];
    });
    return { ...page, items };
  });
  if (!found && matches) pages = insertInOrder(pages, event);
  return { ...data, pages };
}

function insertInOrder(pages: OverflowPage[], event: OverflowEvent): OverflowPage[] {
  const index = pages.findIndex((page) => page.items.some((item) => newerFirst(event, item) < 0));
  const lastPage = pages.at(-1);
  if (index === -1) {
    // Older than everything loaded: it belongs at the end only when the list is complete.
    if (!lastPage || lastPage.nextCursor !== null) return pages;
    return [...pages.slice(0, -1), { ...lastPage, items: [...lastPage.items, event] }];
  }
  return pages.map((page, i) => (i === index ? { ...page, items: [...page.items, event].sort(newerFirst) } : page));
}

/**
 * Events into every loaded list (each with its filters, the last part of its key): from the live
 * socket, and from an edit's answer. The counts are asked again, since a growing event changes
 * the totals.
 */
export function storeOverflowEvents(events: OverflowEvent[]): void {
  for (const [key, data] of queryClient.getQueriesData<OverflowPages>({ queryKey: queryKeys.overflowLists })) {
    if (!data) continue;
    const filters = (key[2] ?? {}) as OverflowFilters;
    queryClient.setQueryData<OverflowPages>(key, events.reduce((pages, event) => applyOverflowUpdate(pages, filters, event), data));
  }
  void queryClient.invalidateQueries({ queryKey: queryKeys.overflowStats });
}
