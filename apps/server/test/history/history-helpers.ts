import { spawnSync } from 'node:child_process';
import type { TestServer } from '../helpers/server';
import { sqlRun, sqlValue } from '../helpers/sql';

export interface SeedReading {
  deviceId: string;
  tsMs: number;
  valueNum?: number | null;
  valueText?: string | null;
  status?: string;
}

/** Inserts readings straight into storage (fast; bypasses ingest, which keeps device state), in the given order. */
export async function insertReadings(s: TestServer, rows: SeedReading[]): Promise<void> {
  // Multi-row INSERTs in one transaction; 500 rows × 6 parameters stays under both engines' limits.
  const CHUNK = 500;
  await s.modules.storage.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      const values = chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
      const params = chunk.flatMap((r) => [r.deviceId, r.tsMs, r.valueNum ?? null, r.valueText ?? null, r.status ?? 'normal', r.tsMs]);
      await sqlRun({ ...s.modules.storage, db: trx }, `INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES ${values}`, ...params);
    }
  });
}

export async function countReadings(s: TestServer, deviceId?: string): Promise<number> {
  const n = deviceId ? await sqlValue(s, 'SELECT COUNT(*) AS n FROM readings WHERE device_id = ?', deviceId) : await sqlValue(s, 'SELECT COUNT(*) AS n FROM readings');
  return Number(n);
}

/** Signs in as the demo admin and registers a level sensor; returns its id. */
export async function createLevelSensor(s: TestServer, adminCookie: string, id: string, name: string): Promise<string> {
  const res = await s.fetch('/api/v1/devices', {
    method: 'POST',
    cookie: adminCookie,
    json: { id, name, location: 'Pruebas', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 5 } },
  });
  if (res.status !== 201) throw new Error(`creating ${id} failed: ${res.status} ${await res.text()}`);
  return id;
}

const PYTHON = '/usr/bin/python3';

/**
 * The workbook is read back by openpyxl (Python), an implementation independent of ExcelJS, which
 * reads what Excel reads: a cell is a date only when it holds a number with a date format.
 * CI installs Debian's python3-openpyxl (.ci/run); a root developer machine gets it here.
 */
export function ensureOpenpyxl(): void {
  const probe = () => spawnSync(PYTHON, ['-c', 'import openpyxl'], { encoding: 'utf8' }).status === 0;
  if (probe()) return;
  if (process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let res = spawnSync('apt-get', ['install', '-y', '-q', 'python3-openpyxl'], { encoding: 'utf8', env });
    if (res.status !== 0) {
      spawnSync('apt-get', ['update', '-q'], { encoding: 'utf8', env });
      res = spawnSync('apt-get', ['install', '-y', '-q', 'python3-openpyxl'], { encoding: 'utf8', env });
    }
    if (probe()) return;
  }
  throw new Error('python3-openpyxl is needed to read the exported workbook: apt-get install -y python3-openpyxl');
}

/** A cell as Excel would take it; `formula` is a cell Excel would compute, `error` one it cannot show (#VALUE!). */
export type XCell =
  | { t: 'date'; v: string; fmt: string }
  | { t: 'number'; v: number }
  | { t: 'string'; v: string }
  | { t: 'formula'; v: string }
  | { t: 'error'; v: string }
  | { t: 'null' };
export interface XSheet {
  name: string;
  rows: XCell[][];
}

const READER = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = []
for ws in wb.worksheets:
    rows = []
    for row in ws.iter_rows():
        cells = []
        for c in row:
            v = c.value
            if v is None:
                cells.append({"t": "null"})
            elif c.data_type == "f":
                cells.append({"t": "formula", "v": str(v)})
            elif c.data_type == "e":
                cells.append({"t": "error", "v": str(v)})
            elif isinstance(v, datetime.datetime):
                cells.append({"t": "date", "v": v.isoformat(timespec="milliseconds"), "fmt": c.number_format})
            elif isinstance(v, bool):
                cells.append({"t": "string", "v": str(v)})
            elif isinstance(v, (int, float)):
                cells.append({"t": "number", "v": v})
            else:
                cells.append({"t": "string", "v": str(v)})
        rows.append(cells)
    out.append({"name": ws.title, "rows": rows})
print(json.dumps(out))
`;

/** Sheets of an .xlsx file as openpyxl reads them. */
export function readWorkbook(file: string): XSheet[] {
  const res = spawnSync(PYTHON, ['-c', READER, file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`openpyxl could not read the workbook: ${res.stderr}`);
  return JSON.parse(res.stdout) as XSheet[];
}

/** Wall-clock time of an instant in a time zone, as openpyxl prints it (YYYY-MM-DDTHH:mm:ss.SSS). */
export function wallClock(tsMs: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
    })
      .formatToParts(new Date(tsMs))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${parts.fractionalSecond}`;
}

/** Minimal RFC 4180 parser for the tests' CSV checks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
