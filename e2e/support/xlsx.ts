import { spawnSync } from 'node:child_process';

/**
 * Reads an .xlsx back with openpyxl (Debian's /usr/bin/python3 + python3-openpyxl): a reader
 * independent of the server's writer, so that a workbook only the writer understands fails.
 * CI installs python3-openpyxl (.ci/run).
 */
const PYTHON = '/usr/bin/python3';

export interface SheetDump {
  name: string;
  /** The first row as text. */
  header: string[];
  /** Number of rows after the header that hold anything. */
  dataRows: number;
  /** The first data rows (at most 5), each cell as [python type name, text]. */
  sample: Array<Array<[string, string]>>;
}

export function hasOpenpyxl(): boolean {
  const probe = spawnSync(PYTHON, ['-c', 'import openpyxl'], { encoding: 'utf8' });
  return probe.status === 0;
}

const SCRIPT = String.raw`
import json, sys
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = []
for ws in wb.worksheets:
    rows = ws.iter_rows(values_only=True)
    header = next(rows, None) or ()
    count = 0
    sample = []
    for row in rows:
        if row is None or all(c is None for c in row):
            continue
        count += 1
        if len(sample) < 5:
            sample.append([[type(c).__name__, "" if c is None else str(c)] for c in row])
    out.append({"name": ws.title, "header": ["" if c is None else str(c) for c in header], "dataRows": count, "sample": sample})
print(json.dumps(out, ensure_ascii=False))
`;

/** Every sheet of the workbook: name, header, data row count and a sample of typed cells. */
export function readWorkbook(file: string): SheetDump[] {
  const run = spawnSync(PYTHON, ['-c', SCRIPT, file], { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`openpyxl could not read ${file}: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as SheetDump[];
}
