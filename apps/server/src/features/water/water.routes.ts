import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DailyTotalsSchema, DeviceGeometrySchema, GeometryBodySchema, IsoDateTime, LocalDateSchema, MAX_ANALYTICS_BUCKETS, MAX_DAILY_DAYS } from '@agua/shared';
import { errors, LIST_COMPRESSION, RequestTime, SESSION_SECURITY } from '../../lib/route-schemas';
import { closedRange, iso, parseRange } from '../../lib/time';
import type { WaterAnalyticsService } from './analytics.service';
import { ANALYTICS_STEPS } from './bucket-edges';
import type { DailyTotalsService } from './daily.service';
import type { GeometryService } from './geometry.service';

export interface WaterRoutesOptions {
  geometry: GeometryService;
  analytics: WaterAnalyticsService;
  daily: DailyTotalsService;
}

/** The default range of /analytics: the last 24 hours. */
const DEFAULT_ANALYTICS_SPAN_MS = 24 * 3_600_000;
const Figure = Type.Union([Type.Number(), Type.Null()]);
const AnalyticsSeriesSchema = Type.Object(
  {
    from: IsoDateTime,
    to: IsoDateTime,
    step: Type.Union(ANALYTICS_STEPS.map((s) => Type.Literal(s))),
    items: Type.Array(Type.Object({ ts: IsoDateTime, level: Type.Number(), volumeM3: Figure, netFlowM3h: Figure, inflowM3: Figure, outflowM3: Figure })),
  },
  { title: 'AnalyticsSeries' },
);

const DailySeriesSchema = Type.Object({ from: LocalDateSchema, to: LocalDateSchema, items: Type.Array(DailyTotalsSchema) }, { title: 'DailySeries' });

const DeviceParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Geometry and calibration of level sensors (docs/water.md). */
export default async function waterRoutes(app: FastifyInstance, opts: WaterRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['water'];

  r.get('/api/v1/devices/:id/geometry', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A level sensor's geometry and calibration: the current version and every version, newest first (never configured: version 0 with the defaults)",
      security: SESSION_SECURITY,
      params: DeviceParams,
      response: { 200: DeviceGeometrySchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => opts.geometry.get(req.params.id),
  });

  r.get('/api/v1/devices/:id/analytics', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags,
      summary: `Level, volume and flows per minute or hour (UTC) or local day; default the last 24 h by hour; at most ${MAX_ANALYTICS_BUCKETS} buckets (400 TOO_MANY_BUCKETS); empty buckets left out`,
      security: SESSION_SECURITY,
      params: DeviceParams,
      querystring: Type.Object({
        from: Type.Optional(RequestTime('inclusive')),
        to: Type.Optional(RequestTime('exclusive')),
        step: Type.Optional(Type.Union(ANALYTICS_STEPS.map((s) => Type.Literal(s)), { default: '1h' })),
      }),
      response: { 200: AnalyticsSeriesSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const range = closedRange(parseRange(req.query.from, req.query.to), DEFAULT_ANALYTICS_SPAN_MS, Date.now());
      const series = await opts.analytics.series(req.params.id, range, req.query.step ?? '1h');
      return { from: iso(series.fromMs), to: iso(series.toMs), step: series.step, items: series.items.map(({ tsMs, ...figures }) => ({ ts: iso(tsMs), ...figures })) };
    },
  });

  r.get('/api/v1/devices/:id/daily', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags,
      summary: `Daily totals per local day (TZ, 23- to 25-hour days), oldest first: from inclusive, to exclusive (YYYY-MM-DD); at most ${MAX_DAILY_DAYS} days (400 TOO_MANY_DAYS); a date not on the calendar 400 VALIDATION_FAILED, from not before to 400 RANGE_INVALID`,
      security: SESSION_SECURITY,
      params: DeviceParams,
      querystring: Type.Object({
        from: Type.String({ ...LocalDateSchema, description: 'the first day, YYYY-MM-DD (local), inclusive' }),
        to: Type.String({ ...LocalDateSchema, description: 'the day after the last one, YYYY-MM-DD (local), exclusive' }),
      }),
      response: { 200: DailySeriesSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => ({ from: req.query.from, to: req.query.to, items: await opts.daily.days(req.params.id, req.query.from, req.query.to) }),
  });

  r.put('/api/v1/devices/:id/geometry', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'A new version of the geometry (fields left out take their defaults; version, validFrom, by and versions are ignored, so a GET can be sent back). 422 GEOMETRY_INVALID names the field and the reason.',
      security: SESSION_SECURITY,
      params: DeviceParams,
      body: GeometryBodySchema,
      response: { 200: DeviceGeometrySchema, ...errors(400, 401, 403, 404, 409, 422) },
    },
    handler: async (req) => opts.geometry.put(req.params.id, req.body, { user: req.auth!.user, ip: req.ip }),
  });
}
