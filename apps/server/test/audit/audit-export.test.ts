// GET /api/v1/export-audit.csv: the audit trail of a filter as CSV, for an administrator — the
// same filters as the pages, every event of them (past one page), newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from '../helpers/api';
import { DEMO_PASSWORDS, startServer, type TestServer } from '../helpers/server';
import { sqlRun } from '../helpers/sql';

let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
  // 600 refused sign-ins a second apart, the oldest with a formula for a username: more than one
  // batch of the export (written straight into the trail: the server collapses a real flood).
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < 600; i++) {
    const username = i === 0 ? '=HYPERLINK("http://evil.test","x")' : `intruso${i}`;
    await sqlRun(
      s,
      "INSERT INTO audit_events (at_ms, action, user_id, username, target, result, ip, details_json) VALUES (?, 'auth.login_failed', NULL, ?, NULL, 'denied', '192.0.2.7', ?)",
      start + i * 1000,
      username,
      JSON.stringify({ reason: 'INVALID_CREDENTIALS' }),
    );
  }
});

afterAll(async () => {
  await s.close();
});

/** The CSV's data lines (without the BOM and the header). */
async function csvLines(res: Response): Promise<string[]> {
  // text() would drop the BOM, which is part of what is checked.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  expect(text.startsWith('\uFEFFFecha y Hora,Acción,Resultado,Usuario,Objetivo,Dirección IP,Detalles\r\n')).toBe(true);
  return text.split('\r\n').slice(1, -1);
}

describe('audit export', () => {
  it('every event of the filter, newest first, in CSV with formulas neutralised', async () => {
    const res = await s.fetch('/api/v1/export-audit.csv?action=auth.login_failed', { cookie: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Auditoria.csv"');
    const lines = await csvLines(res);
    expect(lines).toHaveLength(600);
    expect(lines.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?[+-]\d\d:\d\d,auth\.login_failed,Denegado,/.test(l))).toBe(true);
    expect(lines[0]).toContain(',intruso599,,192.0.2.7,"{""reason"":""INVALID_CREDENTIALS""}"');
    const times = lines.map((l) => Date.parse(l.split(',')[0]!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The oldest is the formula-looking username: a leading ' keeps it text.
    expect(lines.at(-1)).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
  });

  it('filters like the pages: a range with nothing in it is 404 NO_DATA; only administrators may export', async () => {
    await expectApiError(await s.fetch('/api/v1/export-audit.csv?from=2001-01-01T00:00:00Z&to=2001-01-02T00:00:00Z', { cookie: admin }), 404, 'NO_DATA');
    const me = (await (await s.fetch('/api/v1/auth/me', { cookie: admin })).json()) as { id: string };
    const one = await csvLines(await s.fetch(`/api/v1/export-audit.csv?action=auth.login&userId=${encodeURIComponent(me.id)}`, { cookie: admin }));
    expect(one.length).toBeGreaterThanOrEqual(1);
    expect(one.every((l) => l.includes(`,auth.login,Correcto,${DEMO_PASSWORDS.admin.username},`))).toBe(true);
    await expectApiError(await s.fetch('/api/v1/export-audit.csv', { cookie: await s.login('operator') }), 403);
  });
});
