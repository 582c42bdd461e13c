import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import type { DeviceGateway } from '../gateway/device-gateway';
import { deviceTopic, dispatchDeviceMessage } from './device-messages';

/** A gateway that records what the dispatch asked of it. */
function recordingGateway(active = true) {
  const calls: string[] = [];
  const gateway = {
    activeDevice: (id: string) => {
      calls.push(`active ${id}`);
      if (!active) throw new AppError(403, 'DEVICE_DISABLED');
      return { id };
    },
    ingest: async (device: { id: string }, body: unknown) => void calls.push(`ingest ${device.id} ${JSON.stringify(body)}`),
    acknowledgeMessage: async (id: string, body: unknown) => void calls.push(`ack ${id} ${JSON.stringify(body)}`),
  } as unknown as DeviceGateway;
  return { gateway, calls };
}

const log = { error: () => undefined } as unknown as FastifyBaseLogger;

describe('device topics', () => {
  it('names the device and the kind of message, or nothing for other topics', () => {
    expect(deviceTopic('agua/v1/esp32_nivel_01/telemetry')).toEqual({ deviceId: 'esp32_nivel_01', kind: 'telemetry' });
    expect(deviceTopic('agua/v1/esp32_nivel_01/commands/ack')).toEqual({ deviceId: 'esp32_nivel_01', kind: 'commands/ack' });
    expect(deviceTopic('agua/v1/esp32_nivel_01/status')).toEqual({ deviceId: 'esp32_nivel_01', kind: 'status' });
    expect(deviceTopic('agua/v1/esp32_nivel_01/commands')).toBeNull();
    expect(deviceTopic('agua/v1/a/b/telemetry')).toBeNull();
  });
});

describe('the one dispatch of both brokers', () => {
  it('stores telemetry and settles acknowledgements; leaves status alone', async () => {
    const { gateway, calls } = recordingGateway();
    const published: unknown[] = [];
    const opts = { publish: async (...args: unknown[]) => void published.push(args), log, admit: (id: string) => void calls.push(`admit ${id}`) };
    await dispatchDeviceMessage(gateway, 'agua/v1/d1/telemetry', Buffer.from('{"v":1}'), opts);
    await dispatchDeviceMessage(gateway, 'agua/v1/d1/commands/ack', Buffer.from('{"c":2}'), opts);
    await dispatchDeviceMessage(gateway, 'agua/v1/d1/status', Buffer.from('online'), opts);
    expect(calls).toEqual(['active d1', 'admit d1', 'ingest d1 {"v":1}', 'active d1', 'admit d1', 'ack d1 {"c":2}']);
    expect(published).toEqual([]);
  });

  it('answers a refusal on the errors topic (acknowledged): an inactive device, or a body that is not JSON', async () => {
    const published: unknown[] = [];
    const opts = { publish: async (...args: unknown[]) => void published.push(args), log };
    await dispatchDeviceMessage(recordingGateway(false).gateway, 'agua/v1/d1/telemetry', Buffer.from('{}'), opts);
    await dispatchDeviceMessage(recordingGateway().gateway, 'agua/v1/d2/commands/ack', Buffer.from('not json'), opts);
    expect(published).toEqual([
      ['agua/v1/d1/errors', expect.objectContaining({ code: 'DEVICE_DISABLED' }), 0],
      ['agua/v1/d2/errors', expect.objectContaining({ code: 'INVALID_JSON' }), 0],
    ]);
  });
});
