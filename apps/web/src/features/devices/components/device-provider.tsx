import { useMemo, type ReactNode } from 'react';
import { useLiveStatus } from '@/lib/live-socket';
import { useDevicesQuery } from '../api/get-devices';
import { DevicesContext, type DevicesContextValue } from '../hooks/use-devices';

const NO_DEVICES: never[] = [];

/** The device list for every signed-in screen: fetched once, then kept current by the live socket. */
export function DeviceProvider({ children, enabled = true }: { children: ReactNode; enabled?: boolean }) {
  const { state } = useLiveStatus();
  const query = useDevicesQuery(state === 'open', enabled);
  const { refetch } = query;
  const value = useMemo<DevicesContextValue>(
    () => ({
      devices: query.data ?? NO_DEVICES,
      isLoading: enabled && query.isPending,
      error: query.error,
      fetchedAt: query.dataUpdatedAt,
      refetch: () => void refetch(),
    }),
    [enabled, query.data, query.isPending, query.error, query.dataUpdatedAt, refetch],
  );
  return <DevicesContext.Provider value={value}>{children}</DevicesContext.Provider>;
}
