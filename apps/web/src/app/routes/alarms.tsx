import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { can, mayShelveAlarm } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/page-header';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { AlarmFigures } from '@/features/alarms/components/alarm-figures';
import { AlarmHistory } from '@/features/alarms/components/alarm-history';
import { OpenAlarms } from '@/features/alarms/components/open-alarms';
import { splitShelved } from '@/features/alarms/utils/shelved-alarms';
import { useAppConfig } from '@/features/auth/api/get-config';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { SiteFilter } from '@/features/sites/components/site-filter';
import { cn } from '@/lib/utils';
import { LoadError } from '@/components/load-error';

type Tab = 'open' | 'history';

export default function AlarmsRoute() {
  const { user } = useAuth();
  const { devices } = useDevices();
  const open = useOpenAlarms();
  const [tab, setTab] = useState<Tab>('open');
  // Until the configuration is known the server's default holds; the server decides in any case.
  const shelveAccess = useAppConfig().data?.alarmShelveCritical ?? 'write';
  const names = new Map(devices.map((d) => [d.id, d.name]));
  const deviceName = (id: string) => names.get(id) ?? id;
  // '?siteId=': the open alarms of one site's devices (filtered here, on the live list), and the
  // history's pages and export (asked of the server).
  const [params] = useSearchParams();
  const siteId = params.get('siteId');
  const siteOf = new Map(devices.map((d) => [d.id, d.siteId]));
  const openAlarms = open.data && siteId ? open.data.filter((a) => siteOf.get(a.deviceId) === siteId) : open.data;

  return (
    <div className="grid gap-6">
      <PageHeader title="Alarmas" description="Alarmas activas, su reconocimiento y su historial (ISA-18.2)." />
      <SiteFilter />
      <div role="tablist" aria-label="Vistas de alarmas" className="flex gap-2 border-b">
        {(
          [
            ['open', `Activas${openAlarms ? ` (${splitShelved(openAlarms).active.length})` : ''}`],
            ['history', 'Historial'],
          ] as const
        ).map(([key, label]) => (
          <Button
            key={key}
            role="tab"
            aria-selected={tab === key}
            variant="ghost"
            className={cn('rounded-b-none border-b-2 border-transparent', tab === key && 'border-primary font-semibold')}
            onClick={() => setTab(key)}
          >
            {label}
          </Button>
        ))}
      </div>
      {tab === 'open' ? (
        open.isError && !open.data ? (
          <LoadError message={open.error.message} onRetry={() => void open.refetch()} />
        ) : (
          <OpenAlarms
            alarms={openAlarms ?? []}
            deviceName={deviceName}
            canWrite={can(user, 'write')}
            mayShelve={(priority) => mayShelveAlarm(user, priority, shelveAccess)}
          />
        )
      ) : (
        <AlarmHistory devices={devices} deviceName={deviceName} siteId={siteId} />
      )}
      <section className="grid gap-3" aria-label="Indicadores ISA-18.2">
        <h2 className="text-lg font-semibold">Indicadores ISA-18.2</h2>
        <AlarmFigures />
      </section>
    </div>
  );
}
