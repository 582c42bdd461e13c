import { useMemo } from 'react';
import { Link } from 'react-router';
import { Maximize, X } from 'lucide-react';
import { can } from '@agua/shared';
import { Button, buttonVariants } from '@/components/ui/button';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { AlarmBanner } from '@/features/alarms/components/alarm-banner';
import { AlarmSoundToggle } from '@/features/alarms/components/alarm-sound-toggle';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { abnormalFirst } from '@/features/dashboard/utils/device-order';
import { DeviceProvider } from '@/features/devices/components/device-provider';
import { BypassBanner } from '@/features/interlocks/components/bypass-banner';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { DataAgeNotice } from '@/features/live/components/data-age-notice';
import { LiveStatusIndicator } from '@/features/live/components/live-status-indicator';
import { GlobalShortcuts } from '@/features/shortcuts/components/global-shortcuts';
import { WallAlarmList } from '@/features/wall/components/wall-alarm-list';
import { WallDeviceTile } from '@/features/wall/components/wall-device-tile';
import { useNow } from '@/hooks/use-now';
import { formatTime } from '@/lib/format';
import { useDeviceNames } from '../layout/control-banners';
import { useSignedInLive } from '../layout/use-signed-in-live';

function WallScreen() {
  const { user } = useAuth();
  const { devices, fetchedAt } = useDevices();
  const { data: openAlarms } = useOpenAlarms();
  const now = useNow();
  const ordered = useMemo(() => abnormalFirst(devices, openAlarms ?? []), [devices, openAlarms]);
  const deviceName = useDeviceNames();
  return (
    <div className="flex min-h-dvh flex-col gap-4 p-4 sm:p-6">
      <title>Sala de control · Panel de Control de Agua</title>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Sala de control</h1>
        <span className="text-xl text-muted-foreground tabular-nums" aria-label="Hora">
          {formatTime(now)}
        </span>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <AlarmBanner soundPlace="wall" />
          <LiveStatusIndicator />
          <AlarmSoundToggle place="wall" />
          <Button variant="outline" size="icon" aria-label="Pantalla completa" onClick={() => void document.documentElement.requestFullscreen?.().catch(() => undefined)}>
            <Maximize aria-hidden="true" />
          </Button>
          <Link to="/" className={buttonVariants({ variant: 'outline' })}>
            <X aria-hidden="true" />
            Salir
          </Link>
        </div>
      </header>
      <DataAgeNotice fetchedAt={fetchedAt} />
      <BypassBanner deviceName={deviceName} enabled className="mb-0 text-base" />
      <main className="grid flex-1 gap-4 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <section aria-label="Dispositivos, lo anormal primero" className="grid content-start gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {ordered.map((d) => (
            <WallDeviceTile key={d.id} device={d} />
          ))}
        </section>
        <WallAlarmList alarms={openAlarms ?? []} deviceName={deviceName} canWrite={can(user, 'write')} />
      </main>
    </div>
  );
}

/**
 * The control-room view ('Sala de control', /wall): full screen without the menu, large type,
 * abnormal devices first, the alarms beside them, keyboard first.
 */
export default function WallRoute() {
  const liveEnabled = useSignedInLive();
  return (
    <DeviceProvider enabled={liveEnabled}>
      <WallScreen />
      {liveEnabled ? <GlobalShortcuts /> : null}
    </DeviceProvider>
  );
}
