import type { Schedule, ScheduleRun } from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/**
 * The caches the schedule frames keep (docs/api.md "Live socket"): each gate's schedule list, the
 * preview of a schedule's next runs, and the pages of its runs.
 */

/** One page of GET /schedules/{id}/runs. */
export interface ScheduleRunPage {
  items: ScheduleRun[];
  nextCursor: string | null;
}

/** What an infinite query of GET /schedules/{id}/runs keeps. */
export interface ScheduleRunPages {
  pages: ScheduleRunPage[];
  pageParams: unknown[];
}

export type ScheduleFrame =
  | { type: 'schedule.updated'; data: Schedule }
  | { type: 'schedule.removed'; data: { id: string } }
  | { type: 'schedule.run'; data: ScheduleRun };

/** A gate's schedules in the order of its day: by time, then name. */
export function byTimeOfDay(a: Schedule, b: Schedule): number {
  return a.time.localeCompare(b.time) || a.name.localeCompare(b.name, 'es') || a.id.localeCompare(b.id);
}

/** The list after a schedule came (a frame or an answer): put in or replaced, in order. */
export function upsertSchedule(list: readonly Schedule[], next: Schedule): Schedule[] {
  return [...list.filter((s) => s.id !== next.id), next].sort(byTimeOfDay);
}

export function removeSchedule(list: readonly Schedule[], id: string): Schedule[] {
  return list.filter((s) => s.id !== id);
}

/** The server's order of runs: newest planned first, then id descending. */
export function newerRunFirst(a: ScheduleRun, b: ScheduleRun): number {
  return Date.parse(b.plannedAt) - Date.parse(a.plannedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** A run only moves forward: pending → issued, skipped or cancelled; a frame from before is ignored. */
const STAGE: Record<ScheduleRun['status'], number> = { pending: 0, issued: 1, skipped: 1, missed: 1, cancelled: 1 };

/**
 * The loaded pages after a `schedule.run` frame: a known run is replaced where it is (unless what
 * came is older than what is shown); a new one is put in order, unless it sorts after everything
 * loaded while more pages wait ('Ver más' brings it in its place).
 */
export function applyScheduleRun(data: ScheduleRunPages, run: ScheduleRun): ScheduleRunPages {
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
  if (found) return { ...data, pages };
  const index = pages.findIndex((page) => page.items.some((item) => newerRunFirst(run, item) < 0));
  const lastPage = pages.at(-1);
  if (index === -1) {
    if (!lastPage || lastPage.nextCursor !== null) return data;
    return { ...data, pages: [...pages.slice(0, -1), { ...lastPage, items: [...lastPage.items, run] }] };
  }
  return { ...data, pages: pages.map((page, i) => (i === index ? { ...page, items: [...page.items, run].sort(newerRunFirst) } : page)) };
}

/** A schedule saved here (the answer to a create or an edit): into its gate's list at once. */
export function storeSchedule(schedule: Schedule): void {
  queryClient.setQueryData<Schedule[]>(queryKeys.deviceSchedules(schedule.deviceId), (list) => (list ? upsertSchedule(list, schedule) : list));
  void queryClient.invalidateQueries({ queryKey: queryKeys.schedulePreview(schedule.id) });
}

/** A schedule gone (deleted here, or a frame): out of every gate's list, its preview and runs forgotten. */
export function forgetSchedule(id: string): void {
  for (const [key, list] of queryClient.getQueriesData<Schedule[]>({ queryKey: queryKeys.allDeviceSchedules })) {
    if (list?.some((s) => s.id === id)) queryClient.setQueryData<Schedule[]>(key, removeSchedule(list, id));
  }
  queryClient.removeQueries({ queryKey: queryKeys.schedulePreview(id) });
  queryClient.removeQueries({ queryKey: queryKeys.scheduleRuns(id) });
}

/** Schedule frames into the loaded lists, previews and run pages. */
export function storeScheduleFrames(frames: readonly ScheduleFrame[]): void {
  const moved = new Set<string>();
  for (const frame of frames) {
    if (frame.type === 'schedule.updated') storeSchedule(frame.data);
    else if (frame.type === 'schedule.removed') forgetSchedule(frame.data.id);
    else {
      const run = frame.data;
      queryClient.setQueryData<ScheduleRunPages>(queryKeys.scheduleRuns(run.scheduleId), (data) => (data ? applyScheduleRun(data, run) : data));
      moved.add(run.deviceId);
      void queryClient.invalidateQueries({ queryKey: queryKeys.schedulePreview(run.scheduleId) });
    }
  }
  // A run went (or was skipped): the schedules' next run moved on, and the server sends no schedule.updated for that.
  for (const deviceId of moved) void queryClient.invalidateQueries({ queryKey: queryKeys.deviceSchedules(deviceId) });
}
