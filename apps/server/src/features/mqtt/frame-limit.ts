import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes an MQTT byte stream through unchanged, but fails it as soon as a packet announces more
 * than `maxBytes` (the broker's parser would otherwise buffer any size a client declares, even
 * before it has authenticated). Reads only the fixed header: type byte, then the remaining length
 * (1–4 bytes of 7-bit groups), then skips that many bytes.
 */
export class MqttFrameLimit extends Transform {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'type') {
        i += 1;
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else if (this.state === 'length') {
        const byte = chunk[i]!;
        i += 1;
        this.length += (byte & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes += 1;
        if (this.length > this.maxBytes) return done(new Error(`MQTT packet over ${this.maxBytes} bytes`));
        if ((byte & 0x80) === 0) {
          this.remaining = this.length;
          this.state = this.remaining === 0 ? 'type' : 'body';
        } else if (this.lengthBytes === 4) {
          return done(new Error('malformed MQTT remaining length'));
        }
      } else {
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'type';
      }
    }
    done(null, chunk);
  }
}
