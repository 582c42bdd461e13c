// Reading history, trends and the Excel/CSV exports (docs/api.md). Needs HistoryService.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CSV_FILE_NAME, EXCEL_FILE_NAME, IsoDateTime, Page, ReadingSchema } from '@agua/shared';
import { errors, LIST_COMPRESSION, RequestTime, SESSION_SECURITY } from '../../lib/route-schemas';
import { fileAnswer, streamExport } from '../../lib/stream-export';
import { CSV_CONTENT_TYPE } from '../../lib/csv';
import { writeCsv } from './export-csv';
import { NO_WATER_COLUMNS, type WaterColumnsOf } from './export-water-columns';
import { writeXlsx, XLSX_CONTENT_TYPE, type RowSource } from './export-xlsx';
import { DEFAULT_PAGE_LIMIT, type ExportPlan, type HistoryService } from './history.service';

export interface HistoryRoutesOptions {
  history: HistoryService;
  /** The water columns of the exports (the water feature's; none by default). */
  waterColumns?: WaterColumnsOf;
  /** The devices of a site (404 SITE_NOT_FOUND for an unknown one): the exports' `?siteId=`. */
  siteDeviceIds(siteId: string): Promise<string[]>;
}

const TIME_TO = 'exclusive; from must be before to (400 RANGE_INVALID)';

const BucketSchema = Type.Object(
  {
    ts: Type.String({ format: 'date-time', description: 'start of the bucket' }),
    min: Type.Number(),
    max: Type.Number(),
    mean: Type.Number(),
    count: Type.Integer({ minimum: 1 }),
  },
  { title: 'ReadingBucket' },
);

const ReadingsAnswerSchema = Type.Union([
  Page(ReadingSchema),
  Type.Object(
    {
      mode: Type.Literal('buckets'),
      from: IsoDateTime,
      to: IsoDateTime,
      bucketMs: Type.Integer({ description: 'width of every bucket; bucket k starts at from + k × bucketMs' }),
      items: Type.Array(BucketSchema),
    },
    { title: 'ReadingTrend' },
  ),
  Type.Object(
    {
      mode: Type.Literal('changes'),
      from: IsoDateTime,
      to: IsoDateTime,
      items: Type.Array(ReadingSchema),
      truncated: Type.Boolean({ description: 'more changes than points: page the readings for the rest' }),
    },
    { title: 'GateStateChanges' },
  ),
]);

const ExportQuery = Type.Object({
  from: Type.Optional(RequestTime('inclusive; absent: from the oldest stored reading')),
  to: Type.Optional(RequestTime(`${TIME_TO}; absent: up to the newest`)),
  deviceIds: Type.Optional(Type.String({ maxLength: 4000, description: 'comma-separated device ids (404 DEVICE_NOT_FOUND for an unknown one); absent: every device, retired ones included' })),
  siteId: Type.Optional(Type.String({ maxLength: 64, description: "only the site's devices (with deviceIds: those of them in the site); 404 SITE_NOT_FOUND for an unknown site" })),
});

export default async function historyRoutes(app: FastifyInstance, opts: HistoryRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { history, waterColumns = NO_WATER_COLUMNS } = opts;
  const rows: RowSource = (deviceId, range) => history.exportRows(deviceId, range);
  const tags = ['history'];
  const planExport = async (q: { from?: string; to?: string; deviceIds?: string; siteId?: string }) =>
    history.planExport({ ...q, within: q.siteId === undefined ? undefined : new Set(await opts.siteDeviceIds(q.siteId)) });

  r.get('/api/v1/devices/:id/readings', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A device's stored readings: a page, or a downsampled trend with `points`",
      description: [
        'Retired devices stay readable. Times: ISO 8601 with an offset (400 without); `from` inclusive, `to` exclusive, `from` ≥ `to` is 400 RANGE_INVALID.',
        '',
        `Without \`points\`: a page \`{items: Reading[], nextCursor}\`, oldest first, of at most \`limit\` readings (default ${DEFAULT_PAGE_LIMIT}, max 10000); no from/to = the whole history. Pass \`nextCursor\` back as \`cursor\` (same from/to) for the next page; null = last page.`,
        '',
        'With `points=N` (1..10000; not with `cursor`, `limit` ignored), default range the last 24 hours (only `to`: the 24 h before it; only `from`: up to now):',
        '- level sensors: `{mode: "buckets", from, to, bucketMs, items}` with at most N buckets `{ts, min, max, mean, count}` of width bucketMs = ceil((to − from) / N), ts = bucket start, oldest first; buckets without readings are left out, so a gap in the data shows as a gap. min/max are the true extremes of the bucket.',
        '- gates: `{mode: "changes", from, to, items, truncated}`: the readings where the state differs from the one before (the first reading in the range always included), oldest first, at most N; `truncated` true when there are more.',
      ].join('\n'),
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      querystring: Type.Object({
        from: Type.Optional(RequestTime('inclusive')),
        to: Type.Optional(RequestTime(TIME_TO)),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: `page size, default ${DEFAULT_PAGE_LIMIT}` })),
        cursor: Type.Optional(Type.String({ maxLength: 100 })),
        points: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
      }),
      response: { 200: ReadingsAnswerSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => history.readings(req.params.id, req.query),
  });

  r.get('/api/v1/export.xlsx', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: `The workbook ${EXCEL_FILE_NAME}: one sheet per device with readings in the range`,
      description:
        "Rules of docs/api.md 'Excel and CSV export'. Sheet = device name with []:*?/\\ replaced by '-', cut to 30, unique regardless of case by ' (2)', ' (3)'… within the 30; a device with more rows than a sheet holds continues on a further sheet named the same way. Columns Fecha y Hora (date cell, server time zone), Valor, Unidad, Estado; a level sensor with a geometry (version ≥ 1) also Volumen (m³) and Lectura bruta (m). No rows at all: 404 NO_DATA. Streamed.",
      security: SESSION_SECURITY,
      querystring: ExportQuery,
      response: { 200: fileAnswer(XLSX_CONTENT_TYPE, EXCEL_FILE_NAME), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      const plan: ExportPlan = await planExport(req.query);
      return streamExport(req, reply, XLSX_CONTENT_TYPE, EXCEL_FILE_NAME, (out) => writeXlsx(out, plan, rows, history.options.maxRowsPerSheet, waterColumns));
    },
  });

  r.get('/api/v1/export.csv', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: `The same rows as CSV (${CSV_FILE_NAME})`,
      description:
        'UTF-8 with BOM, comma-separated, CRLF, header Dispositivo,Fecha y Hora,Valor,Unidad,Estado (then Volumen (m³),Lectura bruta (m) when a level sensor with a geometry is exported: every row has them, empty where a device has none); Dispositivo = device id; dates ISO 8601 with the server offset; "." as decimal mark. No rows at all: 404 NO_DATA. Streamed.',
      security: SESSION_SECURITY,
      querystring: ExportQuery,
      response: { 200: fileAnswer(CSV_CONTENT_TYPE, CSV_FILE_NAME), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      const plan = await planExport(req.query);
      return streamExport(req, reply, CSV_CONTENT_TYPE, CSV_FILE_NAME, (out) => writeCsv(out, plan, rows, waterColumns));
    },
  });

}
