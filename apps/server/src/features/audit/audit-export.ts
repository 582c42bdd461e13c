import type { PassThrough } from 'node:stream';
import { csvHeader, csvLine, writeChunk } from '../../lib/csv';
import { LocalClock } from '../history/local-time';
import type { AuditEventRecord, AuditQuery, AuditRepository } from './audit.repository';

export const AUDIT_CSV_FILE_NAME = 'Auditoria.csv';
export const AUDIT_EXPORT_HEADERS = ['Fecha y Hora', 'Acción', 'Resultado', 'Usuario', 'Objetivo', 'Dirección IP', 'Detalles'] as const;
const RESULT_LABELS: Record<AuditEventRecord['result'], string> = { ok: 'Correcto', denied: 'Denegado', failed: 'Fallido' };
const BATCH = 500;

/** The events of a filter, newest first, a batch at a time (by id, as the pages are). */
export async function* auditBatches(trail: Pick<AuditRepository, 'page'>, q: Omit<AuditQuery, 'limit' | 'beforeId'>): AsyncIterable<AuditEventRecord[]> {
  let beforeId: number | undefined;
  for (;;) {
    const batch = await trail.page({ ...q, limit: BATCH, ...(beforeId !== undefined ? { beforeId } : {}) });
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < BATCH) return;
    beforeId = batch[batch.length - 1]!.id;
  }
}

/**
 * The audit trail as CSV (docs/api.md): UTF-8 with BOM, comma-separated, CRLF, dates ISO 8601
 * with the server's offset, the action as its code (stable for auditors' tools), details as JSON,
 * formula-looking text neutralised like every CSV the server writes.
 */
export async function writeAuditCsv(out: PassThrough, batches: AsyncIterable<AuditEventRecord[]>): Promise<void> {
  const clock = new LocalClock();
  out.write(csvHeader(AUDIT_EXPORT_HEADERS));
  for await (const batch of batches) {
    if (out.destroyed) return;
    let chunk = '';
    for (const e of batch) {
      chunk += csvLine([clock.isoWithOffset(e.atMs), e.action, RESULT_LABELS[e.result], e.username ?? '', e.target ?? '', e.ip ?? '', e.details ? JSON.stringify(e.details) : '']);
    }
    await writeChunk(out, chunk);
  }
  if (!out.destroyed) out.end();
}
