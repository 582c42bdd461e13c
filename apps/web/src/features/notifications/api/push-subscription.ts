import type { MyNotifications } from '@agua/shared';
import { api, isApiError } from '@/lib/api-client';
import { serviceWorkerReady, serviceWorkerRegistration } from '@/lib/service-worker';

/** Whether this browser can receive Web Push at all. */
export const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const bytes = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

/**
 * This browser's current subscription, if push is on here. It does not wait for a service
 * worker: without one (development, a failed registration) there is none, and signing out must
 * not hang on it.
 */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await serviceWorkerRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission, subscribes with the server's VAPID key and tells the server. A
 * subscription the browser still holds for another user (who did not sign out here) is
 * replaced by a new one of this user's: the server never hands one user's endpoint to another.
 */
export async function turnPushOn(vapidPublicKey: string): Promise<MyNotifications> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('El navegador no dio permiso para mostrar notificaciones.');
  const reg = await serviceWorkerReady();
  if (!reg) throw new Error('Este navegador no admite notificaciones push.');
  const subscribe = () => reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(vapidPublicKey) });
  const subscription = await subscribe();
  try {
    return await api.post<MyNotifications>('/notifications/me/push-subscriptions', subscription.toJSON());
  } catch (err) {
    if (!isApiError(err) || err.code !== 'PUSH_ENDPOINT_TAKEN') throw err;
    await subscription.unsubscribe();
    return api.post<MyNotifications>('/notifications/me/push-subscriptions', (await subscribe()).toJSON());
  }
}

/** Unsubscribes this browser and tells the server (on 'Desactivar push aquí' and on signing out). */
export async function turnPushOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.delete('/notifications/me/push-subscriptions', { endpoint: subscription.endpoint }).catch(() => undefined);
  await subscription.unsubscribe();
}
