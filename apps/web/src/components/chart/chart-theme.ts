/**
 * Colours for canvas charts, read from the design tokens (CSS variables) so that charts follow
 * the light/dark theme. Canvas cannot resolve var(), hence the lookup at (re)creation time.
 */
import type { Theme } from '@/lib/theme';

export interface ChartColors {
  foreground: string;
  muted: string;
  grid: string;
  primary: string;
  ok: string;
  warn: string;
  warnText: string;
  crit: string;
  critText: string;
  off: string;
  card: string;
  /** Colours of compared series (one per device), calm and apart from the state colours. */
  series: string[];
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

/** --series-1 … --series-4 in index.css. */
const SERIES_TOKENS = 4;

const cache = new Map<Theme, ChartColors>();

/** The tokens of the theme in force; cached per theme, as they only change with it. */
export function readChartColors(theme: Theme): ChartColors {
  const cached = cache.get(theme);
  if (cached) return cached;
  const style = getComputedStyle(document.documentElement);
  const colors: ChartColors = {
    foreground: cssVar(style, '--foreground', '#111'),
    muted: cssVar(style, '--muted-foreground', '#666'),
    grid: cssVar(style, '--border', '#ddd'),
    primary: cssVar(style, '--primary', '#2563eb'),
    ok: cssVar(style, '--ok', '#16a34a'),
    warn: cssVar(style, '--warn', '#eab308'),
    warnText: cssVar(style, '--warn-fg', '#854d0e'),
    crit: cssVar(style, '--crit', '#dc2626'),
    critText: cssVar(style, '--crit-fg', '#991b1b'),
    off: cssVar(style, '--off', '#9ca3af'),
    card: cssVar(style, '--card', '#fff'),
    series: Array.from({ length: SERIES_TOKENS }, (_, i) => cssVar(style, `--series-${i + 1}`, '#666')),
  };
  cache.set(theme, colors);
  return colors;
}

/**
 * The colour with an alpha: tokens are oklch()/rgb()/hsl() functions, so the alpha goes in as
 * `/ a`; anything else (a named colour) is returned as is.
 */
export function withAlpha(color: string, alpha: number): string {
  const m = /^(oklch|oklab|rgb|hsl|lab|lch)\(([^)/]+)\)$/i.exec(color);
  return m ? `${m[1]}(${m[2]!.trim()} / ${alpha})` : color;
}

/** Canvas font for axis and in-plot labels, scaled for the device pixel ratio where asked. */
/** The colour of compared series number i (cycling through the tokens). */
export function seriesColor(c: ChartColors, i: number): string {
  return c.series[i % c.series.length]!;
}

/** CSS for the same colour (legends next to a canvas), cycling like seriesColor. */
export function seriesCss(i: number): string {
  return `var(--series-${(i % SERIES_TOKENS) + 1})`;
}

export function chartFont(px: number, ratio = 1): string {
  return `${Math.round(px * ratio)}px 'Inter Variable', ui-sans-serif, system-ui, sans-serif`;
}
