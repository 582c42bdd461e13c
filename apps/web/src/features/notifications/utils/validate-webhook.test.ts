import { describe, expect, it } from 'vitest';
import { validateWebhook, type WebhookFormValues } from './validate-webhook';

const ok: WebhookFormValues = { name: ' Guardia ', url: ' https://hooks.example.com/agua ', format: 'generic', chatId: '', minPriority: '2' };

describe('validateWebhook', () => {
  it('trims and builds the body', () => {
    expect(validateWebhook(ok)).toEqual({ body: { name: 'Guardia', url: 'https://hooks.example.com/agua', format: 'generic', minPriority: 2 } });
  });

  it('accepts plain http with a port (a plant network)', () => {
    expect(validateWebhook({ ...ok, url: 'http://127.0.0.1:9/nada' })).toHaveProperty('body');
  });

  it.each(['', 'hooks.example.com', 'ftp://example.com', 'https://', 'javascript:alert(1)', `https://e.com/${'x'.repeat(2000)}`])('refuses the URL %j', (url) => {
    const r = validateWebhook({ ...ok, url });
    expect(r).toHaveProperty('errors.url');
  });

  it('requires a name of at most 100 characters', () => {
    expect(validateWebhook({ ...ok, name: '   ' })).toEqual({ errors: { name: 'El nombre es obligatorio.' } });
    expect(validateWebhook({ ...ok, name: 'x'.repeat(101) })).toHaveProperty('errors.name');
  });

  it('sends chatId only for Telegram, where it is required', () => {
    expect(validateWebhook({ ...ok, format: 'slack', chatId: '123' })).toEqual({
      body: { name: 'Guardia', url: 'https://hooks.example.com/agua', format: 'slack', minPriority: 2 },
    });
    expect(validateWebhook({ ...ok, format: 'telegram' })).toHaveProperty('errors.chatId');
    expect(validateWebhook({ ...ok, format: 'telegram', chatId: ' -100123 ', minPriority: '1' })).toEqual({
      body: { name: 'Guardia', url: 'https://hooks.example.com/agua', format: 'telegram', chatId: '-100123', minPriority: 1 },
    });
  });

  it('refuses a priority outside 1–4', () => {
    expect(validateWebhook({ ...ok, minPriority: '5' })).toHaveProperty('errors.minPriority');
  });
});
