import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Command } from '@agua/shared';
import type { Config } from '../../config/env';
import type { EventBus } from '../../lib/event-bus';
import type { Late } from '../../lib/late';
import type { Placement } from '../../lib/placement';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import { CommandsRepository, toCommand } from './commands.repository';
import { CommandsService, type CommandGuard, type CommandRouter, type MqttDelivery, type Reauthentication, type ScheduleHolds } from './commands.service';
import { GateTravelWatch, type GateFaults } from './travel-watch';

export interface CommandsDeps {
  config: Pick<Config, 'commandTimeoutS' | 'approvalTimeoutS' | 'deviceOfflineAfterS'>;
  db: Kysely<Database>;
  devices: DevicesService;
  bus: EventBus;
  audit: AuditService;
  placement: Placement;
  /** Several instances: commands for devices held elsewhere go there; null when alone. */
  router: CommandRouter | null;
  /** A gate that does not arrive in time is recorded as a fault (the telemetry). */
  gateFaults: GateFaults;
  /**
   * Delivery over MQTT. Late: the MQTT transport is built from the device gateway, which hands
   * devices their commands — so it can only exist after this module. Resolved in `app.ts`.
   */
  mqtt: Late<MqttDelivery>;
  /** The interlocks in front of every command (docs/control.md). */
  guard: CommandGuard;
  reauth: Reauthentication;
  /** Schedules holding gates: built after this module, which they issue through (resolved in `app.ts`). */
  holds: Late<ScheduleHolds>;
  log: FastifyBaseLogger;
}

export interface CommandsModule {
  repo: CommandsRepository;
  service: CommandsService;
}

export function createCommands(d: CommandsDeps): CommandsModule {
  const repo = new CommandsRepository(d.db);
  const travel = new GateTravelWatch(d.devices, d.bus, d.gateFaults, (err) => d.log.error({ err }, 'recording a gate travel fault failed'), d.placement);
  const service = new CommandsService(repo, d.devices, d.bus, d.audit, travel, {
    commandTimeoutS: d.config.commandTimeoutS,
    approvalTimeoutS: d.config.approvalTimeoutS,
    defaultOfflineAfterS: d.config.deviceOfflineAfterS,
    placement: d.placement,
    router: d.router,
    guard: d.guard,
    reauth: d.reauth,
    holds: d.holds,
    mqtt: {
      isConnected: (deviceId) => d.mqtt.get().isConnected(deviceId),
      deliver: (deviceId, command) => d.mqtt.get().deliver(deviceId, command),
    },
  });
  return { repo, service };
}

/** A stored command by id: how the devices feature, built before this one, shows a device's last command. */
export function lastCommandOf(db: Kysely<Database>): (commandId: string) => Promise<Command | null> {
  const repo = new CommandsRepository(db);
  return async (id) => {
    const c = await repo.findById(id);
    return c ? toCommand(c) : null;
  };
}
