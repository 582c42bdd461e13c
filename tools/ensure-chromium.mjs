#!/usr/bin/env node
// Browser tests drive Debian's Chromium; install it with apt-get when it is missing and we can.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

if (!fs.existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      `Chromium was not found at ${CHROMIUM} and cannot be installed automatically here.\n` +
        'Install Debian\'s package as root: apt-get update && apt-get install -y chromium\n' +
        '(or point CHROMIUM_PATH at a Chromium binary).',
    );
    process.exit(1);
  }
  console.log('Installing Debian chromium for the browser tests (apt-get)…');
  execSync('apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium', { stdio: 'inherit' });
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`apt-get finished but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}
