import { describe, expect, it } from 'vitest';
import { MqttFrameLimit } from './frame-limit';

/** Feeds chunks through the limit; the first refusal, or null. */
function run(limit: number, chunks: Buffer[]): string | null {
  const guard = new MqttFrameLimit(limit);
  for (const c of chunks) {
    const reason = guard.check(c);
    if (reason !== null) return reason;
  }
  return null;
}

/** A PUBLISH-like packet with a body of n bytes and its remaining length encoded properly. */
function packet(n: number): Buffer {
  const len: number[] = [];
  let x = n;
  do {
    let byte = x % 128;
    x = Math.floor(x / 128);
    if (x > 0) byte |= 0x80;
    len.push(byte);
  } while (x > 0);
  return Buffer.concat([Buffer.from([0x32, ...len]), Buffer.alloc(n, 7)]);
}

describe('MQTT frame limit', () => {
  it('passes packets under the limit, split anywhere', () => {
    const data = Buffer.concat([packet(10), packet(0), packet(300), packet(200_000)]);
    const chunks = [data.subarray(0, 1), data.subarray(1, 2), data.subarray(2, 5000), data.subarray(5000)];
    expect(run(256 * 1024, chunks)).toBeNull();
  });

  it('keeps track of packet boundaries: a later packet over the limit is caught', () => {
    const data = Buffer.concat([packet(200_000), packet(5), packet(300_000).subarray(0, 4)]);
    expect(run(256 * 1024, [data.subarray(0, 100_001), data.subarray(100_001)])).toMatch(/over/);
  });

  it('refuses a packet that announces more than the limit, before its body arrives', () => {
    const header = packet(300_000).subarray(0, 4);
    expect(run(256 * 1024, [packet(5), header])).toMatch(/over/);
  });

  it('refuses a remaining length longer than four bytes', () => {
    expect(run(Number.MAX_SAFE_INTEGER, [Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01])])).toMatch(/malformed/);
  });
});
