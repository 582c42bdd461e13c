import { useMemo } from 'react';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { siteAlarmStatuses, type SiteAlarmStatus } from '../utils/site-status';

/** Every site's alarm status, live: the open alarms and the devices' siteId, both kept by the socket. */
export function useSiteStatuses(): Map<string, SiteAlarmStatus> {
  const { devices } = useDevices();
  const { data: alarms } = useOpenAlarms();
  return useMemo(() => siteAlarmStatuses(devices, alarms ?? []), [devices, alarms]);
}
