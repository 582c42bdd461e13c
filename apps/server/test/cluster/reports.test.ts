// docs/reports.md "Exactly once" with several instances: two instances on one PostgreSQL database
// and one Redis, a report scheduled a minute ahead; it runs once, and its recipient gets one e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ReportRun } from '@agua/shared';
import { startCluster, type TestCluster } from '../helpers/cluster';
import { sleep, waitFor } from '../helpers/protocol';
import { startMailbox, type Mailbox } from '../helpers/receivers';

describe('a scheduled report with two instances', () => {
  let cluster: TestCluster;
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    cluster = await startCluster(['a', 'b'], { TZ: 'UTC', SMTP_URL: mailbox.url, SMTP_FROM: 'agua@example.com' });
  });
  afterAll(async () => {
    await cluster?.destroy();
    await mailbox?.close();
  });

  it('runs once per period and sends one e-mail', { timeout: 180_000 }, async () => {
    const [a, b] = cluster.instances as [TestCluster['instances'][0], TestCluster['instances'][0]];
    const admin = await cluster.login(a, 'admin');
    // The next whole minute at least 15 s away.
    const at = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
    const time = at.toISOString().slice(11, 16);
    const res = await fetch(`${a.url}/api/v1/reports`, {
      method: 'POST',
      headers: { cookie: admin, origin: a.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Diario', kind: 'daily', deviceIds: ['esp32_nivel_01'], formats: ['xlsx'], recipients: ['jefe@example.com'], schedule: { time } }),
    });
    expect(res.status).toBe(201);
    const report = (await res.json()) as Report;
    const viewerB = await cluster.login(b, 'viewer');
    const runsOn = async (url: string, cookie: string) =>
      ((await (await fetch(`${url}/api/v1/report-runs?reportId=${report.id}`, { headers: { cookie } })).json()) as { items: ReportRun[] }).items;
    const runs = await waitFor(async () => {
      const items = await runsOn(b.url, viewerB);
      return items.some((r) => r.status === 'done') ? items : null;
    }, at.getTime() - Date.now() + 45_000, 250);
    const yesterday = new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
    expect(runs!.map((r) => [r.from, r.to, r.requestedBy])).toEqual([[yesterday, yesterday, null]]);
    // The demo's alarms may e-mail its users meanwhile: the report's recipient is an address of its own.
    const reportMails = () => mailbox.mails.filter((m) => JSON.stringify(m.to).includes('jefe@example.com'));
    await waitFor(async () => (reportMails().length > 0 ? true : null), 20_000);
    // Both instances' schedule ticks and runners have had their turns again.
    await sleep(12_000);
    expect(await runsOn(a.url, admin)).toHaveLength(1);
    expect(reportMails()).toHaveLength(1);
    expect(reportMails()[0]!.attachments.map((x) => x.filename)).toEqual([`informe-diario-${yesterday}.xlsx`]);
    expect(reportMails()[0]!.subject).toBe(`Informe Diario: ${yesterday.slice(8)}/${yesterday.slice(5, 7)}/${yesterday.slice(0, 4)}`);
  });
});
