import { useSyncExternalStore } from 'react';
import { WifiOff } from 'lucide-react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Without a network the app still opens (the service worker keeps it), but what it shows is old. */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  if (online) return null;
  return (
    <div role="status" className="mb-6 flex items-start gap-3 rounded-lg border border-warn/40 bg-warn/10 px-4 py-3 text-sm font-medium text-warn-fg">
      <WifiOff className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>Sin conexión: los datos mostrados pueden estar desactualizados.</p>
    </div>
  );
}
