#!/usr/bin/env node
// The tests need two Debian packages: chromium (browser tests drive it with Playwright) and
// python3-openpyxl (exported workbooks are read back with a reader independent of our writer).
// Installs what is missing with apt-get when running as root; otherwise stops with a clear message.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const hasOpenpyxl = () => spawnSync('/usr/bin/python3', ['-c', 'import openpyxl'], { stdio: 'ignore' }).status === 0;

const missing = [];
if (!fs.existsSync(CHROMIUM)) missing.push('chromium');
if (!hasOpenpyxl()) missing.push('python3-openpyxl');

if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      `The tests need Debian packages that are missing: ${missing.join(', ')}.\n` +
        `Install them as root: apt-get update && apt-get install -y ${missing.join(' ')}` +
        (missing.includes('chromium') ? '\n(or point CHROMIUM_PATH at a Chromium binary).' : ''),
    );
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} with apt-get…`);
  execSync(`apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${missing.join(' ')}`, { stdio: 'inherit' });
  if (!fs.existsSync(CHROMIUM) || !hasOpenpyxl()) {
    console.error('apt-get finished but a package is still missing.');
    process.exit(1);
  }
}
