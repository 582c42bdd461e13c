/**
 * Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by "where"
 * (a package in node_modules, a server source file, node internals, GC), and inclusive time of
 * the server's own functions. Samples can be limited to time windows (the measured runs), given
 * in the profile's clock (CLOCK_MONOTONIC µs, the same as process.hrtime in the bench).
 *
 * Also a CLI: `tsx tools/bench/ingest/profile-summary.ts <file.cpuprofile> [topN]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './server-process';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled ms in the windows, and how much of it the thread was idle. */
  totalMs: number;
  idleMs: number;
  bySelf: Array<{ name: string; ms: number }>;
  byWhere: Array<{ name: string; ms: number }>;
  serverInclusive: Array<{ name: string; ms: number }>;
}

function shortUrl(url: string): string {
  let u = url.replace(/^file:\/\//, '');
  if (u.startsWith(REPO_ROOT)) u = path.relative(REPO_ROOT, u);
  return u;
}

/** Where a frame's code lives: a package, a server/shared file, a node internal, or V8 itself. */
function whereOf(cf: CallFrame): string {
  const u = shortUrl(cf.url);
  if (!u) {
    if (cf.functionName.startsWith('(')) return cf.functionName; // (garbage collector), (program), (idle)
    return `native: ${cf.functionName || '(anonymous)'}`;
  }
  const nm = u.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + 'node_modules/'.length).split('/');
    return `pkg ${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (u.startsWith('node:')) return `node ${u.slice(5).split('/')[0]}`;
  if (u.startsWith('apps/') || u.startsWith('packages/') || u.startsWith('tools/')) return u;
  return u;
}

function frameName(cf: CallFrame): string {
  const u = shortUrl(cf.url);
  const fn = cf.functionName || '(anonymous)';
  return u ? `${fn} ${u}:${cf.lineNumber + 1}` : fn;
}

export function summarizeProfile(file: string, windows: Array<[number, number]> = [], topN = 15): ProfileSummary {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Keep windows that overlap the profile at all; without any, take the whole profile.
  const usable = windows.filter(([a, b]) => b > prof.startTime && a < prof.endTime);
  const inWindow = (t: number) => usable.length === 0 || usable.some(([a, b]) => t >= a && t <= b);

  const selfMs = new Map<number, number>();
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i] ?? 0;
    t += dt;
    if (!inWindow(t)) continue;
    const id = prof.samples[i]!;
    selfMs.set(id, (selfMs.get(id) ?? 0) + dt / 1000);
  }

  let totalMs = 0;
  let idleMs = 0;
  const bySelf = new Map<string, number>();
  const byWhere = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    totalMs += ms;
    if (node.callFrame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const name = frameName(node.callFrame);
    bySelf.set(name, (bySelf.get(name) ?? 0) + ms);
    const where = whereOf(node.callFrame);
    byWhere.set(where, (byWhere.get(where) ?? 0) + ms);
    // Inclusive time of server functions: walk up the stack, counting each function once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      const u = shortUrl(cf.url);
      if (!u.startsWith('apps/server/src/') && !u.startsWith('packages/shared/')) continue;
      const key = frameName(cf);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  const top = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([name, ms]) => ({ name, ms }));
  return { totalMs, idleMs, bySelf: top(bySelf), byWhere: top(byWhere), serverInclusive: top(inclusive) };
}

export function formatSummary(title: string, s: ProfileSummary): string {
  const busy = s.totalMs - s.idleMs;
  const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)}%`;
  const lines = [
    `--- ${title}: ${Math.round(s.totalMs)} ms sampled, main thread busy ${Math.round(busy)} ms (${Math.round((busy / s.totalMs) * 100)}%); shares below are of busy time`,
    '  self time by where:',
    ...s.byWhere.map((e) => `    ${pct(e.ms)}  ${e.name}`),
    '  self time by function:',
    ...s.bySelf.map((e) => `    ${pct(e.ms)}  ${e.name}`),
    '  inclusive time of server functions:',
    ...s.serverInclusive.map((e) => `    ${pct(e.ms)}  ${e.name}`),
  ];
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx tools/bench/ingest/profile-summary.ts <file.cpuprofile> [topN]');
    process.exit(2);
  }
  console.log(formatSummary(path.basename(file), summarizeProfile(file, [], Number(process.argv[3] ?? 20))));
}
