// docs/reports.md "Schedule" and "E-mail": a scheduled report whose server was off catches up at
// start with the newest 7 periods, oldest first, each e-mailed once with its files to a user and
// an address (a real SMTP server); a further restart queues and sends nothing again; an
// operator's run with send: true is e-mailed too, and none without.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ReportRun } from '@agua/shared';
import { jsonOf } from '../helpers/api';
import { waitFor } from '../helpers/protocol';
import { startMailbox, type Mailbox } from '../helpers/receivers';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlRun } from '../helpers/sql';
import { useTimeZone } from '../helpers/time-zone';
import { waitForRun } from './report-helpers';

const DAY_MS = 86_400_000;

describe('scheduled reports', () => {
  useTimeZone('UTC');
  const dataDir = tempDataDir();
  let mailbox: Mailbox;
  let s: TestServer;
  let report: Report;
  const env = () => ({ TZ: 'UTC', SMTP_URL: mailbox.url, SMTP_FROM: 'Agua <agua@example.com>', PUBLIC_URL: 'http://agua.example/' });
  /** The reports' e-mails (their subject): the demo's alarms may e-mail its users meanwhile. */
  const reportMails = () => mailbox.mails.filter((m) => m.subject?.startsWith('Informe '));
  const runsOf = async (cookie: string) => (await jsonOf<{ items: ReportRun[] }>(await s.fetch(`/api/v1/report-runs?reportId=${report.id}&limit=50`, { cookie }))).body.items;

  beforeAll(async () => {
    mailbox = await startMailbox();
    s = await startServer(env(), { dataDir });
  });
  afterAll(async () => {
    await s?.close();
    await mailbox?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('periods missed while the server was off run at start: the newest 7, oldest first, each e-mailed once with its files', async () => {
    const admin = await s.login('admin');
    const me = (await jsonOf<{ id: string }>(await s.fetch('/api/v1/auth/me', { cookie: admin }))).body;
    // An hour ago every day (midnight in the day's first hour): today's time has passed whenever the test runs.
    const hourAgo = new Date(Date.now() - 3_600_000);
    const time = hourAgo.getUTCDate() === new Date().getUTCDate() ? hourAgo.toISOString().slice(11, 16) : '00:00';
    const created = await jsonOf<Report>(
      await s.fetch('/api/v1/reports', {
        method: 'POST',
        cookie: admin,
        json: { name: 'Diario', kind: 'daily', deviceIds: ['esp32_nivel_01'], formats: ['xlsx', 'pdf'], recipients: [me.id, 'Jefe@Example.com'], schedule: { time } },
      }),
    );
    expect(created.status).toBe(201);
    report = created.body;
    // Stopped; the definition was made 10 days before (the server was off since).
    await s.close();
    s = await startServer(env(), { dataDir });
    await sqlRun(s, 'UPDATE report_definitions SET created_at_ms = ?, enabled_at_ms = ? WHERE id = ?', Date.now() - 10 * DAY_MS, Date.now() - 10 * DAY_MS, report.id);
    await s.close();
    s = await startServer(env(), { dataDir });
    const viewer = await s.login('viewer');

    const runs = await waitFor(async () => {
      const items = await runsOf(viewer);
      return items.length === 7 && items.every((r) => r.status === 'done') ? items : null;
    }, 30_000);
    expect(runs).not.toBeNull();
    const oldestFirst = [...runs!].reverse();
    expect(oldestFirst.every((r) => r.requestedBy === null && r.send && r.from === r.to)).toBe(true);
    const days = oldestFirst.map((r) => Date.parse(`${r.from}T00:00:00Z`));
    for (let i = 1; i < days.length; i++) expect(days[i]! - days[i - 1]!).toBe(DAY_MS);
    // The newest is yesterday (today's time has passed); the oldest 7 days before.
    expect(oldestFirst.at(-1)!.from).toBe(new Date(Date.now() - DAY_MS).toISOString().slice(0, 10));

    // 7 runs × 2 recipients.
    await waitFor(async () => (reportMails().length >= 14 ? true : null), 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(reportMails()).toHaveLength(14);
    const toAddress = reportMails().filter((m) => JSON.stringify(m.to).includes('jefe@example.com'));
    const toUser = reportMails().filter((m) => JSON.stringify(m.to).includes('maria.gonzalez@aguas.example'));
    expect(toAddress).toHaveLength(7);
    expect(toUser).toHaveLength(7);
    const first = oldestFirst[0]!;
    const label = `${first.from.slice(8)}/${first.from.slice(5, 7)}/${first.from.slice(0, 4)}`;
    const mail = toAddress.find((m) => m.subject === `Informe Diario: ${label}`);
    expect(mail, `a mail 'Informe Diario: ${label}'`).toBeDefined();
    expect(mail!.attachments.map((a) => a.filename).sort()).toEqual([`informe-diario-${first.from}.pdf`, `informe-diario-${first.from}.xlsx`]);
    const xlsx = mail!.attachments.find((a) => a.filename?.endsWith('.xlsx'))!;
    expect(xlsx.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.content.length).toBe(first.files.find((f) => f.format === 'xlsx')!.bytes);
    expect(mail!.text).toContain('http://agua.example/reports');
  });

  it('a restart queues and sends nothing again', async () => {
    await s.close();
    s = await startServer(env(), { dataDir });
    const viewer = await s.login('viewer');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await runsOf(viewer)).toHaveLength(7);
    expect(reportMails()).toHaveLength(14);
  });

  it("an operator's run is e-mailed with send: true, and not without", async () => {
    const operator = await s.login('operator');
    const before = reportMails().length;
    const quiet = await jsonOf<ReportRun>(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: {} }));
    expect((await waitForRun(s, operator, quiet.body.id)).status).toBe('done');
    const sent = await jsonOf<ReportRun>(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { send: true } }));
    expect(sent.body.send).toBe(true);
    expect((await waitForRun(s, operator, sent.body.id)).status).toBe('done');
    await waitFor(async () => (reportMails().length >= before + 2 ? true : null), 15_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(reportMails().length).toBe(before + 2);
  });
});
