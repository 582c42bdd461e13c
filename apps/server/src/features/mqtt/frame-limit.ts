/**
 * Follows an MQTT byte stream's packet boundaries and says when a packet announces more than
 * `maxBytes` (the broker's parser would otherwise buffer any size a client declares, even before
 * it has authenticated). Reads only the fixed header: type byte, then the remaining length
 * (1–4 bytes of 7-bit groups), then skips that many bytes. It looks at the buffers the broker
 * reads anyway (see guardParser): no stream of its own in front of the socket.
 */
export class MqttFrameLimit {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly maxBytes: number) {}

  /** Takes the next bytes of the stream; the reason to close the connection, or null. */
  check(chunk: Buffer): string | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'type';
      } else if (this.state === 'type') {
        i += 1;
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else {
        const byte = chunk[i]!;
        i += 1;
        this.length += (byte & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes += 1;
        if (this.length > this.maxBytes) return `MQTT packet over ${this.maxBytes} bytes`;
        if ((byte & 0x80) === 0) {
          this.remaining = this.length;
          this.state = this.remaining === 0 ? 'type' : 'body';
        } else if (this.lengthBytes === 4) {
          return 'malformed MQTT remaining length';
        }
      }
    }
    return null;
  }
}

/** The part of an Aedes client this module relies on: its mqtt-packet parser (Aedes 1.x, `_parser`). */
interface ParsingClient {
  _parser?: { parse(buf: Buffer): unknown };
}

/**
 * Puts the limit in front of an Aedes client's parser: every buffer the client reads from its
 * connection is checked before it is parsed; a violation calls `refuse` and nothing more of the
 * connection is parsed. Throws at once if Aedes no longer has the parser where this expects it
 * (a version change must not silently drop the guard).
 */
export function guardParser(client: unknown, maxBytes: number, refuse: (reason: string) => void): void {
  const parser = (client as ParsingClient)._parser;
  if (!parser || typeof parser.parse !== 'function') throw new Error('Aedes client without the expected _parser: the MQTT frame limit cannot be applied');
  const limit = new MqttFrameLimit(maxBytes);
  const parse = parser.parse.bind(parser);
  let refused = false;
  parser.parse = (buf: Buffer) => {
    if (refused) return undefined;
    const reason = limit.check(buf);
    if (reason === null) return parse(buf);
    refused = true;
    refuse(reason);
    return undefined;
  };
}
