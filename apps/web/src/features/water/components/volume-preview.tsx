import { useMemo } from 'react';
import { referenceVolume, volumeAt, type Geometry } from '@agua/shared';
import { formatInteger, formatNumber } from '@/lib/format';

// A small box: its text scales with the width, so the figure is capped (max-w-lg) to keep labels near 10–16 px.
const W = 420;
const H = 190;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };
const SAMPLES = 80;

/** The level → volume curve of the shape over 0…maxLevel, as points in the SVG's box. */
function curve(geometry: Geometry, maxLevelM: number): { path: string; maxVolume: number } | null {
  if (!geometry.shape || maxLevelM <= 0) return null;
  const shape = geometry.shape;
  const levels = Array.from({ length: SAMPLES + 1 }, (_, i) => (maxLevelM * i) / SAMPLES);
  const volumes = levels.map((h) => volumeAt(shape, h).volumeM3);
  const maxVolume = Math.max(...volumes, 0);
  const x = (h: number) => PAD.left + (h / maxLevelM) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (maxVolume > 0 ? v / maxVolume : 0) * (H - PAD.top - PAD.bottom);
  const path = levels.map((h, i) => `${i === 0 ? 'M' : 'L'}${x(h).toFixed(1)},${y(volumes[i]!).toFixed(1)}`).join(' ');
  return { path, maxVolume };
}

/**
 * A live preview of what the form describes: the volume held at each level, the crest marked,
 * and the volume fill and time to overflow are judged against (docs/water.md).
 */
export function VolumePreview({ geometry, maxLevelM }: { geometry: Geometry | null; maxLevelM: number }) {
  const drawn = useMemo(() => (geometry ? curve(geometry, maxLevelM) : null), [geometry, maxLevelM]);
  const reference = geometry ? referenceVolume(geometry, maxLevelM) : null;
  const referenceLabel = geometry?.crestLevelM != null ? 'Volumen a vertedero' : 'Volumen útil';
  if (!geometry?.shape) {
    return (
      <p data-testid="volume-preview" className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">
        {geometry ? 'Sin forma: el sensor mostrará solo el nivel, sin volumen.' : 'Corrige los valores marcados para ver la curva de volumen.'}
      </p>
    );
  }
  const crestX = geometry.crestLevelM != null ? PAD.left + (geometry.crestLevelM / maxLevelM) * (W - PAD.left - PAD.right) : null;
  return (
    <figure data-testid="volume-preview" className="grid gap-2">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full max-w-lg" role="img" aria-label={`Curva nivel–volumen de 0 a ${formatNumber(maxLevelM)} m`}>
        <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} className="stroke-border" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} className="stroke-border" />
        {drawn ? <path d={drawn.path} fill="none" strokeWidth={2.5} className="stroke-primary" /> : null}
        {crestX !== null ? (
          <g data-testid="preview-crest">
            <line x1={crestX} y1={PAD.top} x2={crestX} y2={H - PAD.bottom} strokeDasharray="4 4" strokeWidth={1.5} className="stroke-warn" />
            <text x={crestX - 4} y={PAD.top + 10} textAnchor="end" className="fill-muted-foreground text-[13px]">
              Vertedero
            </text>
          </g>
        ) : null}
        <text x={PAD.left} y={H - 8} className="fill-muted-foreground text-[13px]">
          0 m
        </text>
        <text x={W - PAD.right} y={H - 8} textAnchor="end" className="fill-muted-foreground text-[13px]">
          {formatNumber(maxLevelM)} m
        </text>
        <text x={PAD.left - 6} y={PAD.top + 10} textAnchor="end" className="fill-muted-foreground text-[13px]">
          {drawn ? formatVolume(drawn.maxVolume) : ''}
        </text>
        <text x={PAD.left - 6} y={H - PAD.bottom} textAnchor="end" className="fill-muted-foreground text-[13px]">
          0
        </text>
      </svg>
      <figcaption className="text-sm">
        <span className="text-muted-foreground">{referenceLabel}: </span>
        <span data-testid="reference-volume" className="font-semibold tabular-nums">
          {reference !== null ? `${formatNumber(reference)} m³` : '—'}
        </span>
      </figcaption>
    </figure>
  );
}

/** Axis label: whole m³ for big tanks, two decimals for small ones. */
function formatVolume(v: number): string {
  return `${v >= 100 ? formatInteger(v) : formatNumber(v)} m³`;
}
