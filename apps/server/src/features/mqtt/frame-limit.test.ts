import { describe, expect, it } from 'vitest';
import { MqttFrameLimit } from './frame-limit';

/** Feeds chunks through the limit; resolves with the bytes passed, or rejects with its error. */
function run(limit: number, chunks: Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const t = new MqttFrameLimit(limit);
    const out: Buffer[] = [];
    t.on('data', (b: Buffer) => out.push(b));
    t.on('end', () => resolve(Buffer.concat(out)));
    t.on('error', reject);
    for (const c of chunks) t.write(c);
    t.end();
  });
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
  it('passes packets under the limit unchanged, split anywhere', async () => {
    const data = Buffer.concat([packet(10), packet(0), packet(300), packet(200_000)]);
    const chunks = [data.subarray(0, 1), data.subarray(1, 2), data.subarray(2, 5000), data.subarray(5000)];
    expect((await run(256 * 1024, chunks)).equals(data)).toBe(true);
  });

  it('fails a packet that announces more than the limit, before its body arrives', async () => {
    const header = packet(300_000).subarray(0, 4);
    await expect(run(256 * 1024, [packet(5), header])).rejects.toThrow(/over/);
  });

  it('fails a remaining length longer than four bytes', async () => {
    await expect(run(Number.MAX_SAFE_INTEGER, [Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01])])).rejects.toThrow(/malformed/);
  });
});
