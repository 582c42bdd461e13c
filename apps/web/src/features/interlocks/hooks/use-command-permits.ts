import { useQueries } from '@tanstack/react-query';
import type { InterlockReason, Permissives } from '@agua/shared';
import { useLiveStatus } from '@/lib/live-socket';
import { interlocksOf } from '@/lib/permissive-refresh';
import { queryKeys } from '@/lib/query-keys';
import { useInterlocks } from '../api/interlocks';
import { getPermissives } from '../api/permissives';

/** What a command meets now, as its button and its dialog show it. */
export interface CommandPermit {
  command: string;
  /** The server's check; undefined while it comes, when it failed, or when nothing guards the command. */
  check: Permissives | undefined;
  /** A block interlock fails: the button is disabled and says why. */
  blocked: boolean;
  requires: Permissives['requires'];
  reasons: InterlockReason[];
  bypassed: Permissives['bypassed'];
}

const FREE = { comment: false, password: false, approval: false };
/** The slow backstop for conditions that change without a frame (a reading growing old). */
const BACKSTOP_LIVE_MS = 30_000;
const BACKSTOP_POLLING_MS = 10_000;

/**
 * The permissive checks of a device's commands ('detener' is never asked: it is never blocked).
 * A command no enabled interlock guards is not asked at all; the others are asked once, then again
 * when frames come for the devices their conditions name (lib/permissive-refresh.ts, at most every
 * few seconds), with a slow backstop. The server judges again at submit, whatever this said.
 */
export function useCommandPermits(deviceId: string, commands: readonly string[], enabled: boolean): Record<string, CommandPermit> {
  const interlocks = useInterlocks(enabled);
  const live = useLiveStatus().state === 'open';
  const asked = commands.filter((c) => c !== 'detener');
  // Unknown interlocks (not loaded, or failed): ask, the server knows.
  const guarded = (command: string) => (interlocks.data ? interlocksOf(interlocks.data, deviceId, command).length > 0 : true);
  const results = useQueries({
    queries: asked.map((command) => ({
      queryKey: queryKeys.permissives(deviceId, command),
      queryFn: ({ signal }: { signal: AbortSignal }) => getPermissives(deviceId, command, signal),
      enabled: enabled && guarded(command),
      staleTime: 5_000,
      refetchInterval: guarded(command) ? (live ? BACKSTOP_LIVE_MS : BACKSTOP_POLLING_MS) : (false as const),
    })),
  });
  const permits: Record<string, CommandPermit> = {};
  for (const command of commands) {
    const index = asked.indexOf(command);
    // A check left in the cache from before its interlocks went says nothing now.
    const check = index >= 0 && guarded(command) ? results[index]?.data : undefined;
    permits[command] = {
      command,
      check,
      blocked: check ? !check.allowed : false,
      requires: check?.requires ?? FREE,
      reasons: check?.reasons ?? [],
      bypassed: check?.bypassed ?? [],
    };
  }
  return permits;
}
