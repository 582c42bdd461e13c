import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { topics } from '@agua/shared';
import type { Config } from '../../config/env';
import { connectionCapFor } from '../../lib/connection-cap';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { MqttDelivery } from '../commands/commands.service';
import type { DeviceAccess } from '../devices/device-admin.service';
import { demoDeviceKey, hashDeviceKey } from '../devices/device-keys';
import type { DeviceRecord } from '../devices/devices.repository';
import type { DevicesService } from '../devices/devices.service';
import type { DeviceGateway } from '../gateway/device-gateway';
import { BrokerAccounts } from './external/broker-accounts';
import { BrokerCredentials } from './external/broker-credentials';
import { ExternalBroker } from './external/external-broker';
import { MqttBroker } from './mqtt.broker';
import type { MqttTransport } from './mqtt-transport';

export interface MqttDeps {
  config: Config;
  db: Kysely<Database>;
  /** To check device keys on the external broker's accounts. */
  keyPepper: string;
  instanceId: string;
  devices: DevicesService;
  gateway: DeviceGateway;
  bus: EventBus;
  log: FastifyBaseLogger;
}

export interface MqttModule {
  transport: MqttTransport;
  /** How commands are delivered over this transport (the commands feature's late input). */
  commandDelivery: MqttDelivery;
  /** The external broker's device accounts, kept in step with every key change; none with the embedded broker. */
  deviceAccess: DeviceAccess | undefined;
}

/** The embedded broker, or the utility's own (MQTT_URL) with the device accounts kept in step on it. */
export function createMqtt(deps: MqttDeps): MqttModule {
  const transport = mqttTransport(deps);
  return {
    transport,
    commandDelivery: {
      isConnected: (deviceId) => transport.isConnected(deviceId),
      deliver: (deviceId, command) => transport.publish(topics.commands(deviceId), command),
    },
    deviceAccess: transport instanceof ExternalBroker ? transport.accounts : undefined,
  };
}

function mqttTransport({ config, gateway, bus, log, ...deps }: MqttDeps): MqttTransport {
  if (!config.externalBroker) {
    return new MqttBroker({ port: config.mqttPort, host: config.host, gateway, bus, log, connectionCap: connectionCapFor(config) });
  }
  const broker = config.externalBroker;
  const credentials = new BrokerCredentials(deps.db, deps.keyPepper);
  const keyMatches = (device: DeviceRecord, key: string) => device.keyHash === hashDeviceKey(deps.keyPepper, key);
  return new ExternalBroker({
    config: broker,
    instanceId: deps.instanceId,
    gateway,
    bus,
    log,
    accounts: (dynsec) =>
      new BrokerAccounts({
        dynsec,
        devices: deps.devices,
        credentials,
        keyMatches,
        // A demo device's key is public (docs/protocol.md), so its account can always be made again.
        publicKey: demoDeviceKey,
        serverUsername: broker.username,
        log,
      }),
  });
}
