/**
 * A session's browser in a few words ('Chromium en Linux', 'Safari en iPhone'), from the
 * User-Agent the server stored at sign-in. Order matters: Edge and Opera say 'Chrome' too, Chrome
 * says 'Safari', Android says 'Linux', iPhone says 'Mac OS X'.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\bHeadlessChrome\//, 'Chromium'],
  [/\b(Chrome|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const TOOLS: Array<[RegExp, string]> = [
  [/^curl\//i, 'curl'],
  [/^node(-fetch)?\b|\bundici\b/i, 'Node.js'],
  [/^python-requests\//i, 'Python'],
];

export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return 'Desconocido';
  for (const [pattern, name] of TOOLS) if (pattern.test(ua)) return name;
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} en ${system}`;
  if (browser ?? system) return (browser ?? system)!;
  // Something else (a script, a device): its first word, kept short.
  return ua.split(/[\s/]/)[0]!.slice(0, 40) || 'Desconocido';
}
