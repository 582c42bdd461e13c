import type { FastifyBaseLogger } from 'fastify';
import { DEMO_FLEET, startFleet, type Fleet } from '@agua/simulator';

/**
 * SIMULATE=true: the demo devices come alive in this process, speaking the real protocol to this
 * server like any ESP32 would — sensors over HTTP, the gate over MQTT, so both paths are in use.
 * esp32_compuerta_02 is never played: a real board or a test can take its place.
 */
export function startDemoSimulation(httpUrl: string, mqttUrl: string, log: FastifyBaseLogger): Fleet[] {
  const logger = log.child({ component: 'simulator' });
  const simLogger = {
    info: (msg: string) => logger.info(msg),
    warn: (msg: string) => logger.warn(msg),
    error: (msg: string) => logger.error(msg),
  };
  const sensors = DEMO_FLEET.filter((d) => d.type === 'level_sensor');
  const gates = DEMO_FLEET.filter((d) => d.type === 'motorized_gate');
  return [
    startFleet({ url: httpUrl, transport: 'http', devices: sensors, logger: simLogger }),
    startFleet({ mqttUrl, transport: 'mqtt', devices: gates, logger: simLogger }),
  ];
}
