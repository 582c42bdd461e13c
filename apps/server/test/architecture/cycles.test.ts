// The import-cycle check that `npm test` runs (tools/check-cycles.mjs): the apps have none, and a
// planted cycle between two features or two files is caught.
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
  it.each(['apps/server/src', 'apps/web/src'])('%s has none, between files or features', (dir) => {
    const result = checkRoot(path.join(repo, dir));
    expect(result.files).toBeGreaterThan(50);
    expect(result.fileCycles).toEqual([]);
    expect(result.featureCycles).toEqual([]);
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
