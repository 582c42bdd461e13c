// ws exports its frame builder (ws/lib/sender.js, ws 8) but @types/ws does not declare it.
import 'ws';

declare module 'ws' {
  export const Sender: {
    /** Frames data as one WebSocket message: [header, payload] (or one merged buffer). */
    frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[];
  };
}
