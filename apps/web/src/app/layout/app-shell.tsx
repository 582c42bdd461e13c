import { Outlet } from 'react-router';
import { can } from '@agua/shared';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { DeviceProvider } from '@/features/devices/components/device-provider';
import { useLiveConnection } from '@/features/live/hooks/use-live-connection';
import { OfflineBanner } from '@/features/system/components/offline-banner';
import { StorageBanner } from '@/features/system/components/storage-banner';
import { AppHeader } from './app-header';
import { Sidebar } from './sidebar';

/** Signed-in layout: sidebar + header around the screen; owns the live socket's lifetime. */
export function AppShell() {
  const { user, endSession, verifySession, syncUser } = useAuth();
  // The server refuses the socket while a password change is pending (API.md).
  const liveEnabled = user !== null && !user.mustChangePassword;
  const watchesStorage = liveEnabled && can(user, 'manage_devices');
  useLiveConnection(liveEnabled, {
    onSessionEnded: endSession,
    onConnectFailed: () => void verifySession(),
    onUser: syncUser,
  });

  return (
    <div className="min-h-dvh lg:pl-64">
      <a href="#main" className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Saltar al contenido
      </a>
      <aside className="fixed inset-y-0 left-0 z-40 hidden w-64 border-r bg-sidebar lg:block">
        <Sidebar />
      </aside>
      <AppHeader showLive={liveEnabled} />
      <DeviceProvider enabled={liveEnabled}>
        <main id="main" className="@container mx-auto w-full max-w-[1600px] px-4 py-6 sm:px-6 lg:py-8">
          <OfflineBanner />
          <StorageBanner enabled={watchesStorage} />
          <Outlet />
        </main>
      </DeviceProvider>
    </div>
  );
}
