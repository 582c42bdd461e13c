#!/usr/bin/env node
// Fails when imports form a cycle: between files, or between the feature folders of an app
// (features/<name>/…); and, in the server, when an import breaks a layering rule (RULES below,
// docs/decisions/015-checked-structure.md). Type-only imports count too: a cycle of types is still
// two features that cannot be understood, tested or deleted one without the other
// (docs/decisions/007-background-jobs-and-dependencies.md). Usage: node tools/check-cycles.mjs
// [root …] (default: the server's and web's src, and tools/).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ROOTS = ['apps/server/src', 'apps/web/src', 'tools', 'packages/simulator/src'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
const IMPORT = /(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist' && !entry.name.startsWith('.')) out.push(...sourceFiles(full));
    } else if (EXTENSIONS.includes(path.extname(entry.name)) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** The file a relative or `@/` specifier points at, or null for packages. */
function resolve(fromFile, specifier, root) {
  let base;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(fromFile), specifier);
  else if (specifier.startsWith('@/')) base = path.join(root, specifier.slice(2));
  else return null;
  const stripped = base.replace(/\.(js|mjs)$/, '');
  for (const candidate of [base, ...EXTENSIONS.map((e) => stripped + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(file, root) {
  const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const target = resolve(file, m[1] ?? m[2] ?? m[3], root);
    if (target) out.add(target);
  }
  return out;
}

/** Strongly connected components with more than one node, or a node importing itself (Tarjan). */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) {
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
      }
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

/** The feature folder a file belongs to (`features/<name>`), or null outside features. */
function featureOf(file, root) {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'features' && parts.length > 2 ? parts[1] : null;
}

/** The server's path relative to its src root, with `/` separators. */
const posix = (root, file) => path.relative(root, file).split(path.sep).join('/');

/**
 * Layering rules of the server (docs/decisions/015-checked-structure.md): each says which imports
 * it forbids. Checked on every root; a root without `storage/` or `features/` has nothing to break.
 */
export const RULES = [
  {
    name: 'storage imports no feature',
    forbids: (from, to) => from.startsWith('storage/') && to.startsWith('features/'),
  },
  {
    name: "a feature's storage internals (writers, stores, worker threads) are its own",
    forbids: (from, to) => {
      const [, a] = from.split('/');
      const [top, b, ...rest] = to.split('/');
      if (top !== 'features' || !from.startsWith('features/') || a === b) return false;
      return /\.(writer|store)(\.pg)?\.ts$|\.worker\.ts$/.test(rest.join('/'));
    },
  },
];

export function checkRoot(root) {
  const files = sourceFiles(root);
  const fileGraph = new Map(files.map((f) => [f, importsOf(f, root)]));
  const featureGraph = new Map();
  for (const [file, targets] of fileGraph) {
    const from = featureOf(file, root);
    if (!from) continue;
    if (!featureGraph.has(from)) featureGraph.set(from, new Set());
    for (const target of targets) {
      const to = featureOf(target, root);
      if (to && to !== from) featureGraph.get(from).add(to);
    }
  }
  const rel = (f) => path.relative(repo, f);
  const ruleViolations = [];
  for (const rule of RULES) {
    for (const [file, targets] of fileGraph) {
      for (const target of targets) {
        if (rule.forbids(posix(root, file), posix(root, target))) ruleViolations.push({ rule: rule.name, from: posix(root, file), to: posix(root, target) });
      }
    }
  }
  return {
    files: files.length,
    fileCycles: cycles(fileGraph).map((c) => c.map(rel)),
    featureCycles: cycles(featureGraph),
    ruleViolations,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_ROOTS.map((r) => path.join(repo, r));
  let failed = false;
  for (const root of roots) {
    if (!fs.existsSync(root)) continue;
    const { files, fileCycles, featureCycles, ruleViolations } = checkRoot(path.resolve(root));
    for (const c of fileCycles) console.error(`import cycle between files: ${c.join(' → ')}`);
    for (const c of featureCycles) console.error(`import cycle between features in ${path.relative(repo, root)}: ${c.join(' ↔ ')}`);
    for (const v of ruleViolations) console.error(`rule "${v.rule}" broken in ${path.relative(repo, root)}: ${v.from} imports ${v.to}`);
    failed ||= fileCycles.length > 0 || featureCycles.length > 0 || ruleViolations.length > 0;
    console.log(
      `${path.relative(repo, path.resolve(root))}: ${files} files, ${fileCycles.length} file cycles, ${featureCycles.length} feature cycles, ${ruleViolations.length} rule violations`,
    );
  }
  process.exit(failed ? 1 : 0);
}
