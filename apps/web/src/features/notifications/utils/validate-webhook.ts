import { WEBHOOK_FORMATS, type AlarmPriority, type CreateWebhookBody, type WebhookFormat } from '@agua/shared';

/** What the 'Nuevo webhook' form holds (selects and inputs give strings). */
export interface WebhookFormValues {
  name: string;
  url: string;
  format: WebhookFormat;
  chatId: string;
  minPriority: string;
}

export type WebhookField = 'name' | 'url' | 'format' | 'chatId' | 'minPriority';
export type WebhookFieldErrors = Partial<Record<WebhookField, string>>;

// The limits of CreateWebhookBodySchema (shared), checked here to explain them in Spanish.
const NAME_MAX = 100;
const URL_MAX = 2000;
const CHAT_ID_MAX = 100;

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function validateUrl(raw: string): string | undefined {
  const url = raw.trim();
  if (!url) return 'La URL es obligatoria.';
  if (url.length > URL_MAX) return `La URL admite como máximo ${URL_MAX} caracteres.`;
  const parsed = parseUrl(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname || !/^https?:\/\//i.test(url)) {
    return 'La URL debe empezar por http:// o https:// y llevar un servidor (p. ej. https://hooks.slack.com/services/…).';
  }
  return undefined;
}

/** Checks the form; on success, the body of POST /webhooks (chatId only for Telegram). */
export function validateWebhook(values: WebhookFormValues): { body: CreateWebhookBody } | { errors: WebhookFieldErrors } {
  const errors: WebhookFieldErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'El nombre es obligatorio.';
  else if (name.length > NAME_MAX) errors.name = `El nombre admite como máximo ${NAME_MAX} caracteres.`;
  const urlError = validateUrl(values.url);
  if (urlError) errors.url = urlError;
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(values.format)) errors.format = 'Elija un formato.';
  const chatId = values.chatId.trim();
  if (values.format === 'telegram') {
    if (!chatId) errors.chatId = 'Indique el chat de Telegram (chat_id) al que se envían los avisos.';
    else if (chatId.length > CHAT_ID_MAX) errors.chatId = `El chat de Telegram admite como máximo ${CHAT_ID_MAX} caracteres.`;
  }
  const minPriority = Number(values.minPriority);
  if (![1, 2, 3, 4].includes(minPriority)) errors.minPriority = 'Elija una prioridad.';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      name,
      url: values.url.trim(),
      format: values.format,
      minPriority: minPriority as AlarmPriority,
      ...(values.format === 'telegram' ? { chatId } : {}),
    },
  };
}
