// Reading reports back in tests: a run waited for over HTTP, a PDF's text by pdftotext.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReportRun } from '@agua/shared';
import { jsonOf } from '../helpers/api';
import type { TestServer } from '../helpers/server';

/** The text pdftotext reads from a PDF (Debian's poppler-utils), an implementation independent of our writer. */
export function pdfText(pdf: Buffer): string {
  const file = path.join(os.tmpdir(), `informe-${process.pid}-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    const res = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`pdftotext failed: ${res.stderr}`);
    return res.stdout;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

export async function waitForRun(s: Pick<TestServer, 'fetch'>, cookie: string, id: string, timeoutMs = 20_000): Promise<ReportRun> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const run = (await jsonOf<ReportRun>(await s.fetch(`/api/v1/report-runs/${id}`, { cookie }))).body;
    if (run.status === 'done' || run.status === 'failed') return run;
    if (Date.now() > end) throw new Error(`run ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

