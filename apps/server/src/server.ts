import { buildApp, type BuiltApp } from './app';
import { ConfigError, isLoopback, loadConfig } from './config/env';
import type { Fleet } from '@agua/simulator';
import { startDemoSimulation } from './demo/simulation';
import { BrokerUnreachableError } from './features/mqtt/external/external-broker';
import { MqttPortError } from './features/mqtt/mqtt.broker';
import { RedisUnreachableError } from './features/cluster/redis-link';
import { DatabaseUnreachableError } from './storage/postgres/postgres-storage';
import { DatabaseInUseError } from './storage/postgres/single-instance';

/** Starts the server: reads the configuration, listens, and shuts down gracefully on signals. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  let app: BuiltApp['app'];
  let mqttPort: BuiltApp['mqttPort'];
  try {
    ({ app, mqttPort } = await buildApp(config));
  } catch (err) {
    // PostgreSQL or Redis not there within the start's wait, or not usable: a message naming the variable.
    if (err instanceof DatabaseUnreachableError || err instanceof DatabaseInUseError || err instanceof RedisUnreachableError) {
      console.error(`Start failed: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  if (config.demo && !isLoopback(config.host)) {
    app.log.warn(
      `DEMO MODE ON A NETWORK ADDRESS (${config.host}): the demo passwords and device keys are public. Set DEMO=false for a real installation.`,
    );
  }
  let fleets: Fleet[] = [];
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    Promise.all(fleets.map((f) => f.stop()))
      .then(() => app.close())
      .then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (err instanceof MqttPortError || err instanceof BrokerUnreachableError) {
      app.log.fatal(err.message);
    } else if (e.code === 'EADDRINUSE') {
      app.log.fatal(`Port ${config.port} is already in use (PORT). Choose another with PORT=…`);
    } else {
      app.log.fatal({ err }, 'could not start');
    }
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  if (config.simulate) {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = isLoopback(config.host) || config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
    // Demo gates connect where devices connect: the embedded broker, or the external one.
    const mqttUrl = config.externalBroker?.url ?? `mqtt://${host}:${mqttPort()}`;
    fleets = startDemoSimulation(`http://${host}:${port}`, mqttUrl, app.log, { seed: config.simulatorSeed, gateFaults: config.simulatorGateFaults });
    app.log.info('device simulator running for the demo devices');
  }
}

void main();
