// The import check that `npm test` runs (tools/check-cycles.mjs): the apps and tools have no
// cycle and break no layering rule, and a planted cycle or broken rule is caught
// (docs/decisions/015-checked-structure.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRoot } from '../../../../tools/check-cycles.mjs';

const repo = path.resolve(import.meta.dirname, '../../../..');
const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-cycles-'));
afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

function plant(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(planted, 'src-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('import cycles', () => {
  it.each(['apps/server/src', 'apps/web/src', 'tools'])('%s has none, between files or features, and breaks no rule', (dir) => {
    const result = checkRoot(path.join(repo, dir));
    expect(result.files).toBeGreaterThan(20);
    expect(result.fileCycles).toEqual([]);
    expect(result.featureCycles).toEqual([]);
    expect(result.ruleViolations).toEqual([]);
  });

  it('finds a cycle between two features, even through type-only imports and other files', () => {
    const root = plant({
      'features/alarms/alarms.service.ts': "import type { Reading } from '../telemetry/telemetry.types';\nexport const a = 1;\n",
      'features/telemetry/telemetry.types.ts': 'export interface Reading { v: number }\n',
      'features/telemetry/telemetry.service.ts': "import { a } from '../alarms/alarms.service';\nexport const b = a;\n",
      'lib/errors.ts': 'export class AppError {}\n',
    });
    const result = checkRoot(root);
    expect(result.featureCycles).toEqual([['alarms', 'telemetry']]);
    expect(result.fileCycles).toEqual([]);
  });

  it('finds a cycle between files, through `export … from` and `@/` paths', () => {
    const root = plant({
      'lib/a.ts': "export * from './b';\n",
      'lib/b.ts': "import { c } from '@/lib/c';\nexport const b = c;\n",
      'lib/c.ts': "import { b } from './a';\nexport const c = 1; void b;\n",
    });
    expect(checkRoot(root).fileCycles).toHaveLength(1);
    expect(checkRoot(root).fileCycles[0]).toHaveLength(3);
  });

  it('ignores imports in comments and of packages', () => {
    const root = plant({
      'features/a/a.ts': "// import { b } from '../b/b';\nimport fs from 'node:fs';\nexport const a = fs;\n",
      'features/b/b.ts': "import { a } from '../a/a';\nexport const b = a;\n",
    });
    expect(checkRoot(root).featureCycles).toEqual([]);
  });
});

describe('layering rules', () => {
  it('finds storage importing a feature, by value or by type', () => {
    const root = plant({
      'storage/ingest/ingest-store.ts': "import type { Reading } from '../../features/telemetry/telemetry.types';\nexport const s = 1;\n",
      'storage/database.ts': "import { a } from '../features/alarms/alarms.service';\nexport const d = a;\n",
      'features/telemetry/telemetry.types.ts': 'export interface Reading { v: number }\n',
      'features/alarms/alarms.service.ts': "import { s } from '../../storage/ingest/ingest-store';\nexport const a = s;\n",
    });
    expect(checkRoot(root).ruleViolations).toEqual([
      { rule: 'storage imports no feature', from: 'storage/database.ts', to: 'features/alarms/alarms.service.ts' },
      { rule: 'storage imports no feature', from: 'storage/ingest/ingest-store.ts', to: 'features/telemetry/telemetry.types.ts' },
    ]);
  });

  it("finds a feature reaching into another feature's writers, stores or worker threads, not into its own", () => {
    const root = plant({
      'features/telemetry/readings.writer.ts': "import { w } from '../alarms/alarms.writer';\nimport type { S } from '../devices/current-reading.store.pg';\nexport const r = w;\n",
      'features/telemetry/telemetry.service.ts': "import { r } from './readings.writer';\nimport { t } from '../alarms/alarms.service';\nexport const x = [r, t];\n",
      'features/alarms/alarms.writer.ts': 'export const w = 1;\n',
      'features/alarms/alarms.service.ts': 'export const t = 1;\n',
      'features/devices/current-reading.store.pg.ts': 'export interface S { v: number }\n',
    });
    const broken = checkRoot(root).ruleViolations.map((v) => `${v.from} → ${v.to}`).sort();
    expect(broken).toEqual([
      'features/telemetry/readings.writer.ts → features/alarms/alarms.writer.ts',
      'features/telemetry/readings.writer.ts → features/devices/current-reading.store.pg.ts',
    ]);
  });
});
