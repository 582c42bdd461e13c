import type { Command, Interlock } from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/**
 * The caches the interlock and command frames keep (docs/operator-console.md "Interlocks"): every
 * interlock (the admin screen, and which devices a permissive check depends on), the interlocks
 * bypassed now (the banner), and the two-person commands waiting for approval.
 */

/** Device, then command, then name: the order of the admin screen's groups. */
function byTarget(a: Interlock, b: Interlock): number {
  return a.deviceId.localeCompare(b.deviceId) || a.command.localeCompare(b.command) || a.name.localeCompare(b.name, 'es') || a.id.localeCompare(b.id);
}

/** The list after an interlock came (a frame or an answer): put in, or replaced unless what came is older. */
export function upsertInterlock(list: readonly Interlock[], next: Interlock): Interlock[] {
  const current = list.find((i) => i.id === next.id);
  if (current && current.version > next.version) return [...list];
  return [...list.filter((i) => i.id !== next.id), next].sort(byTarget);
}

export function removeInterlock(list: readonly Interlock[], id: string): Interlock[] {
  return list.filter((i) => i.id !== id);
}

/** The bypassed interlocks after an interlock.updated frame: one with a bypass is (re)put in, one without leaves. */
export function applyBypassFrame(bypasses: readonly Interlock[], next: Interlock): Interlock[] {
  const current = bypasses.find((i) => i.id === next.id);
  if (current && current.version > next.version) return [...bypasses];
  const others = bypasses.filter((i) => i.id !== next.id);
  return next.bypass ? [...others, next] : others;
}

/** The bypasses still running at `nowMs`, the one ending first first: a banner leaves at `until` even without a frame. */
export function runningBypasses(bypasses: readonly Interlock[], nowMs: number): Interlock[] {
  return bypasses.filter((i) => i.bypass !== null && Date.parse(i.bypass.until) > nowMs).sort((a, b) => Date.parse(a.bypass!.until) - Date.parse(b.bypass!.until));
}

/** Oldest first: the one that expires first leads. */
function byIssue(a: Command, b: Command): number {
  return Date.parse(a.issuedAt) - Date.parse(b.issuedAt) || a.id.localeCompare(b.id);
}

/** The waiting two-person commands after a command.updated frame: waiting ones are put in, any other status leaves. */
export function applyAwaitingCommand(list: readonly Command[], command: Command): Command[] {
  const others = list.filter((c) => c.id !== command.id);
  return command.status === 'awaiting_approval' ? [...others, command].sort(byIssue) : others;
}

export type InterlockFrame = { type: 'interlock.updated'; data: Interlock } | { type: 'interlock.removed'; data: { id: string } };

/** Interlock frames into the interlock list (when loaded) and the bypass list. */
export function storeInterlockFrames(frames: readonly InterlockFrame[]): void {
  const list = queryClient.getQueryData<Interlock[]>(queryKeys.interlocks);
  const bypasses = queryClient.getQueryData<Interlock[]>(queryKeys.bypasses);
  let nextList = list;
  let nextBypasses = bypasses;
  for (const frame of frames) {
    if (frame.type === 'interlock.updated') {
      if (nextList) nextList = upsertInterlock(nextList, frame.data);
      nextBypasses = applyBypassFrame(nextBypasses ?? [], frame.data);
    } else {
      if (nextList) nextList = removeInterlock(nextList, frame.data.id);
      if (nextBypasses) nextBypasses = removeInterlock(nextBypasses, frame.data.id);
    }
  }
  if (nextList && nextList !== list) queryClient.setQueryData<Interlock[]>(queryKeys.interlocks, nextList);
  if (nextBypasses && nextBypasses !== bypasses) queryClient.setQueryData<Interlock[]>(queryKeys.bypasses, nextBypasses);
}

/** Command frames into the list of commands waiting for approval (when loaded). */
export function storeAwaitingCommands(commands: readonly Command[]): void {
  const list = queryClient.getQueryData<Command[]>(queryKeys.awaitingCommands);
  if (!list) return;
  queryClient.setQueryData<Command[]>(queryKeys.awaitingCommands, commands.reduce(applyAwaitingCommand, list));
}
