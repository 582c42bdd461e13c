import { describe, expect, it } from 'vitest';
import type { ReadingRow } from '../../src/storage/ingest/rows';
import { packedCount, packReadings, transferOf, unpackReadings } from '../../src/storage/ingest/sqlite/writer-thread.protocol';

const level: ReadingRow = { deviceId: 'esp32_nivel_01', tsMs: 1_795_947_776_065, valueNum: 2.345, valueText: null, status: 'normal', rawNum: 2.9, seq: 1234, boot: 'c0ffee00', receivedMs: 1_795_947_776_100, fromDevice: true };
const gate: ReadingRow = { deviceId: 'esp32_compuerta_01', tsMs: 1_795_947_777_000, valueNum: null, valueText: 'abierta', status: 'normal', rawNum: null, seq: 0, boot: 'b00b', receivedMs: 1_795_947_777_010, fromDevice: true };
const fault: ReadingRow = { deviceId: 'esp32_compuerta_01', tsMs: 1_795_947_778_000, valueNum: null, valueText: 'falla', status: 'critical', rawNum: null, seq: null, boot: '', receivedMs: 1_795_947_778_000, fromDevice: false };

describe("the writer thread's packed readings (storage/ingest/sqlite/writer-thread.protocol.ts)", () => {
  it('unpack gives back every field of levels, gate states and server-recorded faults, nulls and zeros included', () => {
    const rows = [level, gate, fault, { ...level, valueNum: 0, rawNum: null, seq: 0, tsMs: 0 }];
    const packed = packReadings(rows);
    expect(packedCount(packed)).toBe(4);
    expect(unpackReadings(packed)).toEqual(rows);
  });

  it('sends each distinct string once, and the numbers in a buffer that can be moved to the thread', () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({ ...level, seq: i, tsMs: level.tsMs + i * 10 }));
    const packed = packReadings(batch);
    expect([...packed.strings].sort()).toEqual(['c0ffee00', 'esp32_nivel_01', 'normal']);
    expect(transferOf(packed)).toEqual([packed.numbers.buffer]);
    const appended = unpackReadings(packed, [gate]);
    expect(appended).toHaveLength(101);
    expect(appended[100]).toEqual(batch[99]);
  });
});
