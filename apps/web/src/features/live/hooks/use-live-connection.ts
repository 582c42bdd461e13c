import { useEffect, useRef } from 'react';
import { startLive, stopLive, type LiveOptions } from '@/lib/live-socket';

/** Keeps the live socket open while `enabled` (signed in, no pending password change). */
export function useLiveConnection(enabled: boolean, options: LiveOptions): void {
  // Callbacks change identity on every render; the socket reads the latest ones through a ref.
  const ref = useRef(options);
  useEffect(() => {
    ref.current = options;
  });

  useEffect(() => {
    if (!enabled) return;
    startLive({
      onSessionEnded: () => ref.current.onSessionEnded(),
      onConnectFailed: () => ref.current.onConnectFailed?.(),
      onUser: (user) => ref.current.onUser?.(user),
    });
    return () => stopLive();
  }, [enabled]);
}
