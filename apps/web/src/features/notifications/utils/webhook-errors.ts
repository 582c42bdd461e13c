import { isApiError } from '@/lib/api-client';
import type { WebhookField } from './validate-webhook';

const FIELDS: readonly WebhookField[] = ['name', 'url', 'format', 'chatId', 'minPriority'];

/**
 * Which field of the webhook form a server error belongs to (its Spanish message then shows
 * beside that field): the code names it, or the first schema path of a VALIDATION_FAILED.
 */
export function fieldOfWebhookError(error: unknown): { field: WebhookField; message: string } | null {
  if (!isApiError(error)) return null;
  const { code, message, details } = error;
  if (code === 'WEBHOOK_URL_INVALID' || code === 'WEBHOOK_URL_NOT_ALLOWED') return { field: 'url', message };
  if (code === 'WEBHOOK_CHAT_ID_REQUIRED') return { field: 'chatId', message };
  if (code === 'VALIDATION_FAILED' && Array.isArray(details)) {
    for (const item of details as Array<{ path?: unknown }>) {
      const name = typeof item?.path === 'string' ? (item.path.replace(/^\//, '').split('/')[0] ?? '') : '';
      if ((FIELDS as readonly string[]).includes(name)) return { field: name as WebhookField, message };
    }
  }
  return null;
}
