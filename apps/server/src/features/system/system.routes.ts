import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { SHELVE_CRITICAL_ACCESS, StorageStatusSchema, errorMessage, type ShelveCriticalAccess, type StorageStatus } from '@agua/shared';
import { PUBLIC_SECURITY, SESSION_SECURITY, errors } from '../../lib/route-schemas';
import type { DiskSpaceWatch } from '../../storage/disk-space';
import type { MqttTransport } from '../mqtt/mqtt-transport';
import { STORAGE_RETRY_AFTER_S, type StorageHealth } from '../../storage/storage-health';

export interface SystemRoutesOptions {
  demo: boolean;
  version: string;
  /** Who may shelve a Crítica alarm: the web app hides 'Suspender' from the others. */
  alarmShelveCritical: ShelveCriticalAccess;
  /** The sites' map: its tiles and their credit (MAP_TILE_URL, MAP_ATTRIBUTION). */
  map: { tileUrl: string | null; attribution: string | null };
  /** Whether storage answers; health is 503 otherwise. */
  storageHealthy: () => Promise<boolean>;
  /** A storage fault (full disk, I/O errors) makes health 503 while it holds. */
  storageHealth: StorageHealth;
  disk: DiskSpaceWatch;
  /** The embedded broker's port, or whether the external broker is reachable. */
  mqtt: Pick<MqttTransport, 'port' | 'brokerConnected'>;
}

/** Health and the public configuration the web app needs (docs/api.md "Public"). */
export default async function systemRoutes(app: FastifyInstance, opts: SystemRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/api/health', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      summary: 'Whether the server can serve',
      description:
        "200 `ok` when storage answers; with the embedded broker `mqtt.port`; with an external broker (MQTT_URL) `broker.connected`. While that broker is away the answer is 200 `degraded` with `broker.connected: false`: browsers and HTTP devices are still served, so a load balancer must keep the instance. 503 while storage is unavailable.",
      security: PUBLIC_SECURITY,
      response: {
        200: Type.Object({
          status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
          mqtt: Type.Optional(Type.Object({ port: Type.Integer() })),
          broker: Type.Optional(Type.Object({ connected: Type.Boolean() })),
        }),
        503: Type.Object({ status: Type.Literal('unavailable'), error: Type.String(), code: Type.String() }),
      },
    },
    handler: async (_req, reply) => {
      const fault = await opts.storageHealth.current();
      if (fault) {
        return reply
          .status(503)
          .header('retry-after', String(STORAGE_RETRY_AFTER_S))
          .send({ status: 'unavailable', error: errorMessage(fault.code), code: fault.code });
      }
      if (!(await opts.storageHealthy())) {
        return reply.status(503).send({ status: 'unavailable', error: 'Servicio no disponible.', code: 'SERVICE_UNAVAILABLE' });
      }
      const port = opts.mqtt.port();
      if (port !== null) return { status: 'ok' as const, mqtt: { port } };
      // The utility's broker away: MQTT devices cannot reach us, HTTP devices and people still can.
      const connected = opts.mqtt.brokerConnected() === true;
      return { status: connected ? ('ok' as const) : ('degraded' as const), broker: { connected } };
    },
  });

  r.get('/api/v1/config', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      summary: 'What the web app needs to know of the configuration; nothing secret',
      description:
        "`demo`: the login page lists the demo accounts. `alarmShelveCritical` (ALARM_SHELVE_CRITICAL): who may shelve a priority-1 ('Crítica') alarm, `write` (anyone with write) or `admin` (administrators only).",
      security: PUBLIC_SECURITY,
      response: {
        200: Type.Object({
          demo: Type.Boolean(),
          version: Type.String(),
          alarmShelveCritical: Type.Union(SHELVE_CRITICAL_ACCESS.map((a) => Type.Literal(a))),
          timezone: Type.String({ description: "the installation's time zone (TZ, an IANA name): local times on screen (a bypass's end, a schedule) are its" }),
          map: Type.Object(
            {
              tileUrl: Type.Union([Type.String(), Type.Null()], { description: 'MAP_TILE_URL, with {z}, {x}, {y} for the browser to fill in; null: no tiles (sites drawn on a plain background)' }),
              attribution: Type.Union([Type.String(), Type.Null()], { description: "MAP_ATTRIBUTION: the tiles' credit, shown on the map" }),
            },
            { description: "the sites' map (docs/sites.md)" },
          ),
        }),
        ...errors(500),
      },
    },
    handler: async () => ({
      demo: opts.demo,
      version: opts.version,
      alarmShelveCritical: opts.alarmShelveCritical,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      map: { tileUrl: opts.map.tileUrl, attribution: opts.map.attribution },
    }),
  });

  r.get('/api/v1/system/storage', {
    config: { access: 'manage_devices' },
    schema: {
      tags: ['system'],
      summary: "Free space on the data directory's disk and any storage fault, for the operators' warning",
      security: SESSION_SECURITY,
      response: { 200: StorageStatusSchema, ...errors(401, 403, 500) },
    },
    handler: async (): Promise<StorageStatus> => {
      const [space, fault] = await Promise.all([opts.disk.check(), opts.storageHealth.current()]);
      return { ...space, fault: fault && { code: fault.code, since: new Date(fault.sinceMs).toISOString() } };
    },
  });
}
