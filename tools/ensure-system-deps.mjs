#!/usr/bin/env node
// The tests need Debian packages: chromium (browser tests drive it with Playwright),
// python3-openpyxl (exported workbooks are read back with a reader independent of our writer),
// poppler-utils (pdftotext reads the reports' PDFs back), and
// for the reference firmware (firmware/): a C++ compiler and make, doctest-dev (its unit tests),
// libcurl4-openssl-dev and libmosquitto-dev (the virtual board's transports), gcc-xtensa-lx106 and
// picolibc-xtensa-lx106-elf (the microcontroller cross-compile and its size check); mosquitto with
// its dynamic security plugin and mosquitto-clients (mosquitto_ctrl): the external-broker tests start
// a broker of their own on a free port; haproxy: deploy/haproxy.cfg is run by a test; redis-server:
// the tests of several instances start a Redis of their own on a free port.
// Installs what is missing with apt-get when running as root; otherwise stops with a clear message.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const hasOpenpyxl = () => spawnSync('/usr/bin/python3', ['-c', 'import openpyxl'], { stdio: 'ignore' }).status === 0;
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
// A header in /usr/include or in a multiarch directory under it (/usr/include/x86_64-linux-gnu/…).
const hasHeader = (rel) =>
  fs.existsSync(`/usr/include/${rel}`) ||
  fs.readdirSync('/usr/include', { withFileTypes: true }).some((d) => d.isDirectory() && fs.existsSync(`/usr/include/${d.name}/${rel}`));

/** [Debian package, is it there?] */
const PACKAGES = [
  ['chromium', () => fs.existsSync(CHROMIUM)],
  ['python3-openpyxl', hasOpenpyxl],
  ['poppler-utils', () => onPath('pdftotext')],
  ['g++', () => onPath('g++')],
  ['make', () => onPath('make')],
  ['doctest-dev', () => hasHeader('doctest/doctest.h')],
  ['libcurl4-openssl-dev', () => hasHeader('curl/curl.h')],
  ['libmosquitto-dev', () => hasHeader('mosquitto.h')],
  ['gcc-xtensa-lx106', () => onPath('xtensa-lx106-elf-gcc')],
  ['picolibc-xtensa-lx106-elf', () => fs.existsSync('/usr/lib/xtensa-lx106-elf/picolibcpp.specs')],
  ['mosquitto', () => fs.existsSync('/usr/sbin/mosquitto') && fs.existsSync('/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so')],
  ['mosquitto-clients', () => onPath('mosquitto_ctrl')],
  ['haproxy', () => fs.existsSync('/usr/sbin/haproxy')],
  ['redis-server', () => fs.existsSync('/usr/bin/redis-server')],
];
const missingPackages = () => PACKAGES.filter(([, present]) => !present()).map(([name]) => name);

const missing = missingPackages();

if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    console.error(
      `The tests need Debian packages that are missing: ${missing.join(', ')}.\n` +
        `Install them as root: apt-get update && apt-get install -y ${missing.join(' ')}` +
        (missing.includes('chromium') ? '\n(or point CHROMIUM_PATH at a Chromium binary).' : ''),
    );
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} with apt-get…`);
  execSync(`apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${missing.join(' ')}`, { stdio: 'inherit' });
  if (missingPackages().length > 0) {
    console.error('apt-get finished but a package is still missing.');
    process.exit(1);
  }
}
