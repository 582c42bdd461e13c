import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeCsv } from '../../src/features/history/export-csv';
import { writeXlsx, type RowSource } from '../../src/features/history/export-xlsx';
import type { ExportPlan } from '../../src/features/history/history.service';
import type { HistoryRow } from '../../src/features/history/readings.repository';
import { NO_WATER_COLUMNS } from '../../src/features/history/export-water-columns';

const TOTAL = 400_000;
const plan: ExportPlan = {
  devices: [
    { id: 'a', name: 'A', type: 'level_sensor' },
    { id: 'b', name: 'B', type: 'level_sensor' },
  ],
  range: {},
};

/** Counts the rows the writer has asked for. */
function countingSource(): { rows: RowSource; read: () => number } {
  let read = 0;
  const rows: RowSource = async function* () {
    for (let b = 0; b < TOTAL / 2 / 500; b++) {
      const batch: HistoryRow[] = Array.from({ length: 500 }, (_, i) => ({ id: read + i, tsMs: 1.7e12 + (read + i) * 3000, valueNum: Math.random() * 10, valueText: null, status: 'normal', rawNum: null }));
      read += batch.length;
      yield batch;
    }
  };
  return { rows, read: () => read };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (at most 1.5 s) until the writer has stopped reading: the count holds still for 200 ms. */
async function stoppedReading(read: () => number): Promise<void> {
  const deadline = Date.now() + 1500;
  let last = -1;
  while (read() !== last && Date.now() < deadline) {
    last = read();
    await sleep(200);
  }
}

// A window in which nothing may happen: a writer ignoring backpressure reads the whole source in
// a few milliseconds, so half a second is plenty to see it.
const quietWindow = () => sleep(500);

// The writers must stop reading rows while nobody takes their output: ExcelJS's sheet streams
// ignore backpressure, so the xlsx writer watches their buffers itself (ExcelJS internals).
describe('export backpressure', () => {
  for (const [format, write] of [
    ['xlsx', (out: PassThrough, rows: RowSource) => writeXlsx(out, plan, rows, 1_048_575, NO_WATER_COLUMNS)],
    ['csv', (out: PassThrough, rows: RowSource) => writeCsv(out, plan, rows, NO_WATER_COLUMNS)],
  ] as const) {
    it(`${format}: reads only a bounded number of rows ahead of a stalled client, then stops when it goes away`, async () => {
      const out = new PassThrough({ highWaterMark: 256 * 1024 });
      const source = countingSource();
      const done = write(out, source.rows);
      await stoppedReading(source.read);
      const ahead = source.read();
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThan(TOTAL / 4);
      await quietWindow();
      expect(source.read()).toBe(ahead);

      out.destroy();
      await done;
      expect(source.read()).toBeLessThan(TOTAL / 4);
    });
  }

  it('xlsx: keeps its own buffers short when zlib, not the client, is the slow part', async () => {
    // Without watching ExcelJS's buffers, a fast client gets next to nothing until the end: the
    // rows pile up uncompressed in memory, sheet after sheet.
    const out = new PassThrough();
    let received = 0;
    out.on('data', (chunk: Buffer) => (received += chunk.length));
    const ended = new Promise((r) => out.once('end', r));
    let receivedWhenBStarted = -1;
    const rows: RowSource = async function* (deviceId) {
      if (deviceId === 'b') receivedWhenBStarted = received;
      for (let b = 0; b < 200; b++) {
        yield Array.from({ length: 500 }, (_, i) => ({ id: i, tsMs: 1.7e12 + (b * 500 + i) * 3000, valueNum: (b * 500 + i) / 1000, valueText: null, status: 'normal' as const, rawNum: null }));
      }
    };
    await writeXlsx(out, plan, rows, 1_048_575, NO_WATER_COLUMNS);
    await ended;
    // Half the rows are A's: about half the file is out when B starts (without the throttle: < 20 %).
    expect(receivedWhenBStarted).toBeGreaterThan(received * 0.4);
  });
});
