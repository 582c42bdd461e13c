import { Outlet } from 'react-router';
import { can } from '@agua/shared';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { DeviceProvider } from '@/features/devices/components/device-provider';
import { GlobalShortcuts } from '@/features/shortcuts/components/global-shortcuts';
import { OfflineBanner } from '@/features/system/components/offline-banner';
import { StorageBanner } from '@/features/system/components/storage-banner';
import { AppHeader } from './app-header';
import { ControlBanners } from './control-banners';
import { Sidebar } from './sidebar';
import { useSignedInLive } from './use-signed-in-live';

/** Signed-in layout: sidebar + header around the screen; owns the live socket's lifetime. */
export function AppShell() {
  const { user } = useAuth();
  const liveEnabled = useSignedInLive();
  const watchesStorage = liveEnabled && can(user, 'manage_devices');

  return (
    <div className="min-h-dvh lg:pl-64">
      <a href="#main" className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Saltar al contenido
      </a>
      <aside className="fixed inset-y-0 left-0 z-40 hidden w-64 border-r bg-sidebar lg:block">
        <Sidebar />
      </aside>
      <AppHeader showLive={liveEnabled} />
      {liveEnabled ? <GlobalShortcuts /> : null}
      <DeviceProvider enabled={liveEnabled}>
        <main id="main" className="@container mx-auto w-full max-w-[1600px] px-4 py-6 sm:px-6 lg:py-8">
          <OfflineBanner />
          <StorageBanner enabled={watchesStorage} />
          <ControlBanners enabled={liveEnabled} />
          <Outlet />
        </main>
      </DeviceProvider>
    </div>
  );
}
