// docs/alarms.md "Content" for Slack- and Telegram-compatible webhooks: text that came from a device
// (here a failed command's message) or from people (device names, locations) is text, never
// markup. Slack gets `&`, `<`, `>` escaped, so no @channel ping and no link of the device's
// choosing; the only link is ours (PUBLIC_URL). Telegram gets plain text (no parse_mode). The
// bodies are checked as a real receiver got them.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '@agua/shared';
import { ackHttp, issueOk, jsonOf, longPoll } from '../helpers/api';
import { GATE_1, sleep, waitFor } from '../helpers/protocol';
import { startReceiver, type HttpReceiver } from '../helpers/receivers';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const DEVICE_TEXT = 'x <!channel> <https://evil.test/login|Abrir Alarmas> & <@U024BE7LH>';

describe('Slack and Telegram bodies carry device text as text', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let receiver: HttpReceiver;
  let admin: string;
  let operator: string;
  const bodyAt = (path: string) => {
    const r = receiver.received.find((x) => x.path === path);
    return r ? (JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>) : null;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    s = await startServer({ PUBLIC_URL: 'http://agua.test/planta/', DEVICE_RATE_LIMIT: '0' }, { dataDir });
    [admin, operator] = await Promise.all([s.login('admin'), s.login('operator')]);
    for (const [name, format, extra] of [
      ['Slack', 'slack', {}],
      ['Telegram', 'telegram', { chatId: '-100123' }],
    ] as const) {
      const res = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name, url: `${receiver.url}/${format}`, format, minPriority: 3, ...extra } }));
      expect(res.status).toBe(201);
    }
    // A device acknowledges a command as failed, with markup in its message: command_failed (priority 3).
    const polling = longPoll(s, GATE_1, { wait: '20' });
    await sleep(100);
    const commandId = await issueOk(s, operator, GATE_1, 'abrir');
    await (await polling).body?.cancel();
    expect((await ackHttp(s, GATE_1, commandId, { success: false, message: DEVICE_TEXT })).status).toBe(200);
    await waitFor(() => bodyAt('/slack') && bodyAt('/telegram'), 5000);
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('Slack: the device text arrives escaped; the only link is ours', () => {
    const body = bodyAt('/slack') as { text: string };
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain("Comando 'abrir' fallido: x &lt;!channel&gt; &lt;https://evil.test/login|Abrir Alarmas&gt; &amp; &lt;@U024BE7LH&gt;");
    // Everything Slack reads as a control sequence (<…>): only our link.
    expect(body.text.match(/<[^>]*>/g)).toEqual(['<http://agua.test/planta/alarms|Abrir Alarmas>']);
    // No '&' left unescaped, so no entity of the device's own making either.
    expect(body.text.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
  });

  it('Telegram: plain text (no parse mode), the device text as it was', () => {
    const body = bodyAt('/telegram') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['chat_id', 'disable_web_page_preview', 'text']);
    expect(body.chat_id).toBe('-100123');
    expect(body.text).toContain(`Comando 'abrir' fallido: ${DEVICE_TEXT}`);
  });
});
