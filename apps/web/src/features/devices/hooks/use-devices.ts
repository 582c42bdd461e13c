import { createContext, useContext } from 'react';
import { UI_TEXTS, type Device } from '@agua/shared';

export interface DevicesContextValue {
  devices: Device[];
  isLoading: boolean;
  error: Error | null;
  /** When the list last came over HTTP (ms); live updates come on top of it. */
  fetchedAt: number;
  refetch: () => void;
}

export const DevicesContext = createContext<DevicesContextValue | null>(null);

export function useDevices(): DevicesContextValue {
  const value = useContext(DevicesContext);
  if (!value) throw new Error(UI_TEXTS.useDevicesOutsideProvider);
  return value;
}
