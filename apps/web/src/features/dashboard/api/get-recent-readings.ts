import { useQuery } from '@tanstack/react-query';
import { LIVE_HISTORY_PER_SENSOR, READING_INTERVAL_MS, type Reading } from '@agua/shared';
import { api } from '@/lib/api-client';
import { seedLiveHistory } from '@/lib/live-socket';
import { queryKeys } from '@/lib/query-keys';

interface ReadingPage {
  items: Reading[];
  nextCursor: string | null;
}

// Enough time back to fill a sparkline at the normal reading rate.
const WINDOW_MS = LIVE_HISTORY_PER_SENSOR * READING_INTERVAL_MS;

/** Fetches the last minutes of readings once, so a sparkline is not empty right after loading. */
export async function getRecentReadings(deviceId: string, signal?: AbortSignal): Promise<number> {
  const from = new Date(Date.now() - WINDOW_MS).toISOString();
  const page = await api.get<ReadingPage>(`/devices/${encodeURIComponent(deviceId)}/readings`, { from, limit: LIVE_HISTORY_PER_SENSOR }, signal);
  const items = Array.isArray(page?.items) ? page.items : [];
  seedLiveHistory(deviceId, items);
  return items.length;
}

export function useRecentReadings(deviceId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.deviceReadings(deviceId), 'recent'],
    queryFn: ({ signal }) => getRecentReadings(deviceId, signal),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
