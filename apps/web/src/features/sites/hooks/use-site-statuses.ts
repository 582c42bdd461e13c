import { useCallback, useMemo } from 'react';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { NO_ALARMS, siteAlarmStatuses, type SiteAlarmLookup } from '../utils/site-status';

/**
 * Every site's alarm status, live: the open alarms and the devices' siteId, both kept by the
 * socket. Until the open alarms have come (or when they could not be read) a site's status is
 * unknown, not 'Sin alarmas'.
 */
export function useSiteStatuses(): SiteAlarmLookup {
  const { devices } = useDevices();
  const { data: alarms } = useOpenAlarms();
  const statuses = useMemo(() => siteAlarmStatuses(devices, alarms ?? []), [devices, alarms]);
  return useCallback((siteId: string) => (alarms === undefined ? null : (statuses.get(siteId) ?? NO_ALARMS)), [alarms, statuses]);
}
