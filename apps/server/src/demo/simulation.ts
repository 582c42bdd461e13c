import type { FastifyBaseLogger } from 'fastify';
import { DEMO_FLEET, startFleet, type Fleet } from '@agua/simulator';

const DEMO_GATE_FAULTS = { meanEveryMs: 4 * 60_000, lastsMs: 40_000 };

/**
 * SIMULATE=true: the demo devices come alive in this process, speaking the real protocol to this
 * server like any ESP32 would — sensors over HTTP, the gate over MQTT, so both paths are in use.
 * esp32_compuerta_02 is never played: a real board or a test can take its place.
 */
export function startDemoSimulation(httpUrl: string, mqttUrl: string, log: FastifyBaseLogger, opts: { seed: number | null; gateFaults: boolean }): Fleet[] {
  const logger = log.child({ component: 'simulator' });
  const simLogger = {
    // Each reading with its tank's true flows (docs/water.md "Simulator"), at LOG_LEVEL=debug.
    debug: (msg: string) => logger.debug(msg),
    info: (msg: string) => logger.info(msg),
    warn: (msg: string) => logger.warn(msg),
    error: (msg: string) => logger.error(msg),
  };
  const sensors = DEMO_FLEET.filter((d) => d.type === 'level_sensor');
  // The demo gate overloads now and then (about every 4 minutes, for 40 s): its fault alarm is
  // raised and returns while someone watches, as docs/alarms.md's demo asks.
  const gates = DEMO_FLEET.filter((d) => d.type === 'motorized_gate').map((d) => (opts.gateFaults ? { ...d, spontaneousFaults: DEMO_GATE_FAULTS } : d));
  // A seed makes the water levels repeat run after run (end-to-end tests); boots stay random, so
  // a restarted server's devices are never mistaken for resending what they sent before.
  const seeded = opts.seed === null ? {} : { seed: opts.seed };
  return [
    startFleet({ url: httpUrl, transport: 'http', devices: sensors, logger: simLogger, ...seeded }),
    startFleet({ mqttUrl, transport: 'mqtt', devices: gates, logger: simLogger, ...seeded }),
  ];
}
