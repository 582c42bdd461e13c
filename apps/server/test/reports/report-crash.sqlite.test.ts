// docs/reports.md "Exactly once": the server killed with SIGKILL while it generates a report that
// is to be e-mailed; started again, it generates the run again and the recipient gets one e-mail
// (a real SMTP server), with the files of the run as stored.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report, ReportRun } from '@agua/shared';
import { groupGone, killAll, killGroup, signIn, spawnServer, type Child } from '../helpers/child-server';
import { sleep, waitFor } from '../helpers/protocol';
import { startMailbox, type Mailbox } from '../helpers/receivers';
import { tempDataDir } from '../helpers/server';

const MIN = 60_000;

describe('a report run killed mid-way', () => {
  const dataDir = tempDataDir();
  const children: Child[] = [];
  let mailbox: Mailbox | undefined;
  afterAll(async () => {
    await killAll(children);
    await mailbox?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is generated again after a restart and e-mailed once', async () => {
    mailbox = await startMailbox();
    const env = { TZ: 'UTC', SMTP_URL: mailbox.url, SMTP_FROM: 'agua@example.com' };
    // The database with its demo devices, then a month of readings a minute for each, written while it is stopped.
    const first = await spawnServer(dataDir, env);
    children.push(first);
    killGroup(first, 'SIGKILL');
    await groupGone(first);
    const db = new Database(path.join(dataDir, 'agua.db'));
    const from = Date.parse('2026-10-01T00:00:00Z');
    const insert = db.prepare('INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES (?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let m = 0; m < 31 * 1440; m++) {
        const ts = from + m * MIN;
        insert.run('esp32_nivel_01', ts, 1 + (m % 300) / 100, null, 'normal', ts);
        insert.run('esp32_nivel_02', ts, 2 + (m % 200) / 100, null, 'normal', ts);
        insert.run('esp32_compuerta_01', ts, null, m % 2 ? 'abierta' : 'cerrada', 'normal', ts);
      }
    })();
    db.close();

    const second = await spawnServer(dataDir, env);
    children.push(second);
    const admin = await signIn(second, 'admin');
    const headers = { cookie: admin, origin: second.url, 'content-type': 'application/json' };
    const report = (await (
      await fetch(`${second.url}/api/v1/reports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Mensual', kind: 'monthly', deviceIds: null, formats: ['xlsx', 'pdf'], recipients: ['jefe@example.com'], schedule: null }),
      })
    ).json()) as Report;
    const posted = (await (
      await fetch(`${second.url}/api/v1/reports/${report.id}/runs`, { method: 'POST', headers, body: JSON.stringify({ from: '2026-10-01', to: '2026-10-31', send: true }) })
    ).json()) as ReportRun;
    // Killed as soon as it is being generated.
    let seen = posted.status;
    while (seen === 'queued') {
      seen = ((await (await fetch(`${second.url}/api/v1/report-runs/${posted.id}`, { headers })).json()) as ReportRun).status;
    }
    killGroup(second, 'SIGKILL');
    expect(seen, 'the run was seen being generated before the kill').toBe('running');
    await groupGone(second);

    const third = await spawnServer(dataDir, env);
    children.push(third);
    const viewer = await signIn(third, 'viewer');
    const done = await waitFor(async () => {
      const run = (await (await fetch(`${third.url}/api/v1/report-runs/${posted.id}`, { headers: { cookie: viewer } })).json()) as ReportRun;
      return run.status === 'done' ? run : null;
    }, 60_000);
    expect(done!.files.map((f) => f.format).sort()).toEqual(['pdf', 'xlsx']);
    // The demo's alarms may e-mail its users meanwhile: the report's recipient is an address of its own.
    const reportMails = () => mailbox!.mails.filter((m) => JSON.stringify(m.to).includes('jefe@example.com'));
    await waitFor(async () => (reportMails().length > 0 ? true : null), 20_000);
    await sleep(2000);
    expect(reportMails()).toHaveLength(1);
    const mail = reportMails()[0]!;
    expect(mail.subject).toBe('Informe Mensual: octubre de 2026');
    expect(mail.attachments.map((a) => a.content.length).sort((a, b) => a - b)).toEqual(done!.files.map((f) => f.bytes).sort((a, b) => a - b));
  });
});
