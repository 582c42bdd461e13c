import { DEVICE_ID_REGEX, DEVICE_TYPES, READING_INTERVAL_MS, SENSOR_MAX_LEVEL_RESIDUAL_M, type DeviceCommand, type DeviceType, type GeometryInput } from '@agua/shared';
import { silentLogger, type SimLogger, type VirtualDevice } from './device-core';
import { GATE_BEHAVIOURS, Gate, type GateBehaviour } from './gate';
import { LevelSensor } from './level-sensor';
import { createRng, randomSeed, type Rng } from './rng';
import { DEMO_TANKS } from './tank/demo-tanks';
import type { TankFlows } from './tank/flows';
import { TankModel } from './tank/tank-model';
import { emptyStats, type SimStats, type Transport } from './transport';
import { HttpTransport } from './transport-http';
import { MqttTransport } from './transport-mqtt';

/** One virtual device of a fleet. Fields that do not apply to the type are ignored. */
export interface SimDeviceConfig {
  id: string;
  type: DeviceType;
  key: string;
  /** level_sensor: metres (default 10). */
  maxLevel?: number;
  /**
   * level_sensor: its tank and sensor by the server's geometry fields (docs/water.md): the shape the
   * water fills, a crest and weir that spill, and `sensor: 'distance'` with `mountHeightM` and
   * `zeroOffsetM` to send the distance down to the water instead of the level. Default: a level
   * sensor in a 1 m² column.
   */
  geometry?: GeometryInput;
  /** level_sensor: what fills and empties the tank, m³/h (default: in proportion to its volume). */
  flows?: TankFlows;
  /** motorized_gate: see GateBehaviour (default 'normal'). */
  behaviour?: GateBehaviour;
  /** Reading/report interval, ms (default the fleet's, else READING_INTERVAL_MS). */
  intervalMs?: number;
  /** motorized_gate: full stroke time, ms (default 5000). */
  travelMs?: number;
  /** level_sensor: seed of its water model, for a repeatable run (gates: of their spontaneous faults). */
  seed?: number;
  /** motorized_gate: faults of its own now and then (the demo), see GateOptions. */
  spontaneousFaults?: { meanEveryMs: number; lastsMs: number };
}

export interface FleetOptions {
  /** HTTP base URL of the server (required for transport 'http'). */
  url?: string;
  /** MQTT broker URL (required for transport 'mqtt'). */
  mqttUrl?: string;
  /** Default 'http'. */
  transport?: 'http' | 'mqtt';
  devices: readonly SimDeviceConfig[];
  logger?: SimLogger;
  /** Default interval for devices that set none. */
  intervalMs?: number;
  /** HTTP: hold a long poll per device for commands (default true). */
  longPoll?: boolean;
  /** Seed for the water models of devices without their own seed; boots stay random. */
  seed?: number;
}

export interface Fleet {
  /** Live counters shared by every device of the fleet. */
  readonly stats: Readonly<SimStats>;
  readonly size: number;
  /** Readings waiting in the devices' offline buffers. */
  buffered(): number;
  /** Stop every device and close every socket and timer, so that the process can exit. */
  stop(): Promise<void>;
}

/** The key a seed device has in demo mode (docs/protocol.md). */
export function demoKey(deviceId: string): string {
  return `demo-key-${deviceId}`;
}

/**
 * The seed devices the simulator plays in demo mode, the level sensors in their demo tanks
 * (tank/demo-tanks.ts). Never esp32_compuerta_02: that one is left
 * for a real board or a test to take its place (docs/product.md).
 */
export const DEMO_FLEET: readonly Readonly<SimDeviceConfig>[] = Object.freeze(
  [
    ...Object.entries(DEMO_TANKS).map(([id, tank]) => ({ id, type: 'level_sensor', key: demoKey(id), ...tank })),
    { id: 'esp32_compuerta_01', type: 'motorized_gate', key: demoKey('esp32_compuerta_01') },
  ].map((d) => Object.freeze(d as SimDeviceConfig)),
);

/** Start a fleet of virtual devices; it runs until stop(). Throws at once on a bad configuration. */
export function startFleet(options: FleetOptions): Fleet {
  const transportKind = options.transport ?? 'http';
  validate(options, transportKind);
  const logger = options.logger ?? silentLogger;
  const stats = emptyStats();
  const baseSeed = options.seed ?? randomSeed();
  const n = options.devices.length;

  const members = options.devices.map((config, index) => {
    const intervalMs = config.intervalMs ?? options.intervalMs ?? READING_INTERVAL_MS;
    // Spread first readings over one interval so a large fleet does not fire in bursts.
    const startDelayMs = n > 1 ? Math.floor((index * intervalMs) / n) : 0;
    // The transport needs the device (to hand it commands) and the device the transport (to talk).
    let device: VirtualDevice | undefined;
    const common = {
      deviceId: config.id,
      key: config.key,
      logger,
      stats,
      onCommand: (c: DeviceCommand) => device?.handleCommand(c),
    };
    const transport: Transport =
      transportKind === 'mqtt'
        ? new MqttTransport({ ...common, mqttUrl: options.mqttUrl! })
        : new HttpTransport({ ...common, url: options.url!, longPoll: options.longPoll });
    device =
      config.type === 'level_sensor'
        ? new LevelSensor({
            id: config.id,
            io: transport,
            tank: tankOf(config, createRng(config.seed ?? (baseSeed ^ hash(config.id)) >>> 0)),
            intervalMs,
            startDelayMs,
            logger,
          })
        : new Gate({
            id: config.id,
            io: transport,
            behaviour: config.behaviour,
            travelMs: config.travelMs,
            intervalMs,
            startDelayMs,
            logger,
            ...(config.spontaneousFaults ? { spontaneousFaults: { ...config.spontaneousFaults, rng: createRng(config.seed ?? (baseSeed ^ hash(config.id)) >>> 0) } } : {}),
          });
    return { device, transport };
  });

  for (const { device, transport } of members) {
    void transport.start();
    device.start();
  }
  logger.info(`simulator: ${n} device(s) over ${transportKind === 'mqtt' ? options.mqttUrl : options.url}`);

  let stopping: Promise<void> | undefined;
  return {
    stats,
    size: n,
    buffered: () => members.reduce((sum, m) => sum + m.transport.buffered, 0),
    stop() {
      stopping ??= (async () => {
        for (const m of members) m.device.stop();
        await Promise.allSettled(members.map((m) => m.transport.stop()));
      })();
      return stopping;
    },
  };
}

function validate(options: FleetOptions, transport: 'http' | 'mqtt'): void {
  if (transport === 'http' && !options.url) throw new Error('simulator: transport "http" needs url');
  if (transport === 'mqtt' && !options.mqttUrl) throw new Error('simulator: transport "mqtt" needs mqttUrl');
  if (transport !== 'http' && transport !== 'mqtt') throw new Error(`simulator: unknown transport ${String(transport)}`);
  const seen = new Set<string>();
  for (const d of options.devices) {
    if (!DEVICE_ID_REGEX.test(d.id)) throw new Error(`simulator: invalid device id ${JSON.stringify(d.id)}`);
    if (seen.has(d.id)) throw new Error(`simulator: device ${d.id} listed twice`);
    seen.add(d.id);
    if (!(DEVICE_TYPES as readonly string[]).includes(d.type)) throw new Error(`simulator: ${d.id} has unknown type ${d.type}`);
    if (!d.key) throw new Error(`simulator: ${d.id} has no key`);
    if (d.maxLevel !== undefined && !(d.maxLevel > 0)) throw new Error(`simulator: ${d.id} maxLevel must be > 0`);
    if (d.type === 'level_sensor') tankProblem(d);
    if (d.behaviour !== undefined && !GATE_BEHAVIOURS.includes(d.behaviour)) {
      throw new Error(`simulator: ${d.id} has unknown behaviour ${d.behaviour}`);
    }
  }
}

function tankOf(config: SimDeviceConfig, rng: Rng): TankModel {
  return new TankModel({ maxLevel: config.maxLevel ?? SENSOR_MAX_LEVEL_RESIDUAL_M, geometry: config.geometry, flows: config.flows, rng });
}

/** Throws on a tank the simulator cannot play (TankModel says why), before any device starts. */
function tankProblem(d: SimDeviceConfig): void {
  try {
    tankOf(d, Math.random);
  } catch (err) {
    throw new Error(`simulator: ${d.id} ${(err as Error).message}`);
  }
}

/** FNV-1a: a stable per-device variation of the fleet seed. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
