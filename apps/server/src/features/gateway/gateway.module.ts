import type { Config } from '../../config/env';
import type { Placement } from '../../lib/placement';
import type { CommandsService } from '../commands/commands.service';
import type { DevicesService } from '../devices/devices.service';
import type { IngestMetrics } from '../metrics/metrics';
import type { TelemetryService } from '../telemetry/telemetry.service';
import { DeviceGateway } from './device-gateway';
import { DeviceRateLimiter } from './rate-limiter';

export interface GatewayDeps {
  config: Pick<Config, 'deviceRateLimit'>;
  devices: DevicesService;
  telemetry: TelemetryService;
  commands: CommandsService;
  metrics: IngestMetrics;
  placement: Placement;
}

/** Where every device message enters, over HTTP, the long poll or MQTT. */
export function createGateway({ config, devices, telemetry, commands, metrics, placement }: GatewayDeps): DeviceGateway {
  return new DeviceGateway({ devices, limiter: new DeviceRateLimiter(config.deviceRateLimit), telemetry, commands, metrics, placement });
}
