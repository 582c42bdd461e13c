import { useCallback, useMemo, useRef } from 'react';
import { useQueries } from '@tanstack/react-query';
import type uPlot from 'uplot';
import { LineChart } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { percentAxisValues } from '@/components/chart/axis-values';
import { chartFont, readChartColors, seriesColor, seriesCss, withAlpha } from '@/components/chart/chart-theme';
import { columnsSince } from '@/components/chart/level-series';
import { drawThresholdLines, exposeDrawing } from '@/components/chart/threshold-lines';
import { formatInstant, timeAxisValues } from '@/components/chart/time-format';
import { UPlotChart } from '@/components/chart/uplot-chart';
import { levelConfig, offlineAfterMs } from '@/lib/device-helpers';
import { formatInteger } from '@/lib/format';
import { useNow } from '@/hooks/use-now';
import { useLiveHistories } from '@/lib/live-socket';
import { useTheme } from '@/lib/theme';
import { LAST_HOUR_MS, levelTrendQueryOptions, type LevelTrendAnswer } from '../api/get-level-trend';
import { buildOverlayColumns, thresholdPercents, type ThresholdPercents } from '../utils/overlay-series';

const HEIGHT = 240;
// The window slides in steps even while no reading arrives (as on the cards).
const SLIDE_MS = 5000;

function lastHour(): [number, number] {
  const now = Date.now();
  return [(now - LAST_HOUR_MS) / 1000, now / 1000];
}

// Stable, so react-query keeps the combined list's identity while no answer changes.
const answersOf = (results: { data?: LevelTrendAnswer }[]) => results.map((r) => r.data);

/** The percent of each sensor under the cursor, or the newest of each when the cursor is away. */
function describe(u: uPlot, names: string[], idx: number | null | undefined): string {
  const columns = u.data as (number | null | undefined)[][];
  const xs = columns[0] ?? [];
  const parts = names.map((name, s) => {
    const ys = columns[s + 1] ?? [];
    let i = idx ?? xs.length - 1;
    // At the cursor, or else the nearest earlier point of this sensor.
    while (i >= 0 && ys[i] === undefined) i--;
    const v = i >= 0 ? ys[i] : null;
    return `${name}: ${v == null ? 'sin datos' : `${formatInteger(v)} %`}`;
  });
  const when = idx == null ? 'Último' : formatInstant((xs[idx] ?? 0) * 1000);
  return parts.length ? `${when} · ${parts.join(' · ')}` : '';
}

function thresholdWords(t: ThresholdPercents): string {
  return `advertencia en ${t.warning.map((p) => `${p} %`).join(' y ')}, crítico en ${t.critical.map((p) => `${p} %`).join(' y ')}`;
}

/**
 * Every level sensor's last hour on one chart, as percent of its own maxLevel so tanks of
 * different sizes compare; thresholds in percent as dashed lines. Shares the cards' queries.
 */
export function LevelOverlay({ devices }: { devices: Device[] }) {
  const theme = useTheme();
  const now = useNow();
  const readoutRef = useRef<HTMLParagraphElement>(null);
  const sensors = useMemo(
    () =>
      devices.flatMap((d) => {
        const config = levelConfig(d);
        return config ? [{ device: d, config }] : [];
      }),
    [devices],
  );
  const ids = useMemo(() => sensors.map((s) => s.device.id), [sensors]);
  const answers = useQueries({ queries: ids.map((id) => levelTrendQueryOptions(id)), combine: answersOf });
  const lives = useLiveHistories(ids);

  const columns = useMemo(
    () =>
      buildOverlayColumns(
        sensors.map(({ device, config }, i) => ({
          trend: answers[i],
          live: lives[i] ?? [],
          maxLevel: config.maxLevel,
          gapMs: Math.max(2.5 * (answers[i]?.bucketMs ?? 0), offlineAfterMs(device)),
        })),
      ),
    [sensors, answers, lives],
  );
  const windowStartS = (Math.floor(now / SLIDE_MS) * SLIDE_MS - LAST_HOUR_MS) / 1000;
  const data = useMemo(() => columnsSince(columns, windowStartS), [columns, windowStartS]);

  const names = useMemo(() => sensors.map((s) => s.device.name), [sensors]);
  const thresholds = useMemo(() => thresholdPercents(sensors.map((s) => s.config)), [sensors]);
  const thresholdKey = `${thresholds.warning.join(',')}|${thresholds.critical.join(',')}`;
  const nameKey = names.join('\n');

  const makeOptions = useCallback(
    ({ width, height }: { width: number; height: number }): uPlot.Options => {
      const c = readChartColors(theme);
      const seriesNames = nameKey.split('\n');
      const [warning, critical] = thresholdKey.split('|').map((list) => list.split(',').map(Number)) as [number[], number[]];
      const axis = { stroke: c.muted, font: chartFont(11), grid: { stroke: withAlpha(c.grid, 0.9), width: 1 }, ticks: { stroke: c.grid, width: 1, size: 4 } };
      let xTicks: string[] = [];
      const setReadout = (u: uPlot, idx: number | null | undefined) => {
        if (readoutRef.current) readoutRef.current.textContent = describe(u, seriesNames, idx);
      };
      return {
        width,
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false, setScale: false }, y: false, points: { size: 6 } },
        scales: { x: { time: true, range: lastHour }, y: { range: (_u, _min, max) => [0, Math.max(100, (max ?? 0) * 1.02)] } },
        axes: [
          { ...axis, space: 70, size: 40, values: (_u, splits, _i, _s, incr) => (xTicks = timeAxisValues(splits, incr)) },
          { ...axis, size: 48, values: (_u, splits) => percentAxisValues(splits) },
        ],
        series: [{}, ...seriesNames.map((label, i) => ({ label, stroke: seriesColor(c, i), width: 2, points: { size: 4, fill: seriesColor(c, i) } }))],
        hooks: {
          drawClear: [
            (u) => {
              const ys = drawThresholdLines(u, [...warning.map((value) => ({ value, color: c.warn })), ...critical.map((value) => ({ value, color: c.crit }))]);
              exposeDrawing(u, { thresholdY: ys.join(' ') });
            },
          ],
          draw: [(u) => exposeDrawing(u, { xTicks: xTicks.join(' | ') })],
          setCursor: [(u) => setReadout(u, u.cursor.idx)],
          setData: [(u) => setReadout(u, null)],
          ready: [(u) => setReadout(u, null)],
        },
      };
    },
    [theme, nameKey, thresholdKey],
  );

  if (sensors.length === 0) return null;
  return (
    <Card data-testid="level-overlay" aria-labelledby="level-overlay-title" className="min-w-0 p-4 sm:p-5">
      <h2 id="level-overlay-title" className="flex items-center gap-2 text-sm font-semibold">
        <LineChart aria-hidden="true" className="size-4 text-muted-foreground" />
        Tendencia de niveles (última hora)
      </h2>
      <p className="mt-0.5 text-xs text-muted-foreground">En % de la capacidad de cada tanque, para comparar tanques de distinto tamaño.</p>
      <p ref={readoutRef} className="mt-2 h-5 truncate text-xs text-muted-foreground tabular-nums" />
      <UPlotChart makeOptions={makeOptions} data={data} height={HEIGHT} label={`Niveles de ${names.join(' y ')} en la última hora, en % de su capacidad; ${thresholdWords(thresholds)}`} />
      <ul aria-label="Leyenda" className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-xs">
        {names.map((name, i) => (
          <li key={name} className="inline-flex items-center gap-1.5">
            <span aria-hidden="true" className="h-0.5 w-5 rounded" style={{ background: seriesCss(i) }} />
            {name}
          </li>
        ))}
        <li className="inline-flex items-center gap-1.5 text-muted-foreground">
          <span aria-hidden="true" className="w-5 border-t-2 border-dashed border-warn" />
          Advertencia {thresholds.warning.map((p) => `${p} %`).join(', ')}
        </li>
        <li className="inline-flex items-center gap-1.5 text-muted-foreground">
          <span aria-hidden="true" className="w-5 border-t-2 border-dashed border-crit" />
          Crítico {thresholds.critical.map((p) => `${p} %`).join(', ')}
        </li>
      </ul>
    </Card>
  );
}
