import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { LineChart } from 'lucide-react';
import { levelThresholdsOf, referenceVolume, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { levelConfig, offlineAfterMs } from '@/lib/device-helpers';
import { useLiveHistory } from '@/lib/live-socket';
import { useGeometry } from '@/features/water/api/get-geometry';
import { useDeviceTrend, type GateChanges, type LevelTrend } from '../api/get-device-readings';
import { useDeviceAnalytics } from '../api/get-device-analytics';
import { useElementWidth } from '../hooks/use-element-width';
import { buildGateSegments } from '../utils/gate-segments';
import { buildLevelColumns } from '@/components/chart/level-series';
import { resolveRange, type TrendRange } from '../utils/time-range';
import { ANALYTICS_STEP_MS } from '../utils/analytics-step';
import { buildVolumeColumns } from '../utils/volume-series';
import { GATE_BAND_CSS, GATE_BAND_LABELS, GateTimelinePlot, type GateBand } from './gate-timeline-plot';
import { LevelTrendPlot } from './level-trend-plot';
import { RangePicker } from './range-picker';
import { VolumeTrendPlot, type VolumeReference } from './volume-trend-plot';

const LEVEL_HEIGHT = 220;
const GATE_HEIGHT = 110;
// The readout line above the plot (h-5).
const READOUT_PX = 20;
// Bucket count follows the width in steps, so resizing a window does not refetch on every pixel.
const WIDTH_STEP_PX = 50;

function Placeholder({ height, children }: { height: number; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground" style={{ height: height + READOUT_PX }}>
      {children}
    </div>
  );
}

function Swatch({ color, label, line = false }: { color: string; label: string; line?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={line ? 'h-0.5 w-4 rounded' : 'size-3 rounded-sm'} style={{ background: color }} />
      {label}
    </span>
  );
}

function DashSwatch({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className="w-4 border-t-2 border-dashed border-muted-foreground" />
      {label}
    </span>
  );
}

function volumeBody(
  query: ReturnType<typeof useDeviceAnalytics>,
  volume: ReturnType<typeof buildVolumeColumns> | null,
  reference: VolumeReference | null,
  xWindow: () => [number, number],
  height: number,
): ReactNode {
  if (query.isPending) return <Skeleton className="w-full" style={{ height: height + READOUT_PX }} />;
  if (query.isError && !query.data) {
    return (
      <Placeholder height={height}>
        <p role="alert">No se pudo cargar el volumen: {query.error.message}</p>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Reintentar
        </Button>
      </Placeholder>
    );
  }
  if (!volume || volume.count === 0) return <Placeholder height={height}>Sin volúmenes en este rango.</Placeholder>;
  return <VolumeTrendPlot data={volume.data} reference={reference} xWindow={xWindow} height={height} />;
}

/**
 * The device's history on /devices, full width above its panel: level trend or gate periods, live
 * at the end. Opens on the last hour (what an operator checks first); longer ranges are a click away.
 * A level sensor with a shape (docs/water.md) has its volume trend beside the level's, over the
 * same range: side by side on a wide screen, one under the other on a narrow one.
 */
export function TrendChart({ device }: { device: Device }) {
  const isGate = device.type === 'motorized_gate';
  const config = levelConfig(device);
  const [range, setRange] = useState<TrendRange>({ kind: 'preset', preset: '1h' });
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(boxRef);
  const points = Math.max(WIDTH_STEP_PX, Math.ceil(width / WIDTH_STEP_PX) * WIDTH_STEP_PX);
  const query = useDeviceTrend({ deviceId: device.id, isGate, range, points }, isGate || width > 0);
  const liveHistory = useLiveHistory(device.id);
  const height = isGate ? GATE_HEIGHT : LEVEL_HEIGHT;
  const geometry = useGeometry(device.id, !isGate);
  const shape = geometry.data?.shape ?? null;
  // While the geometry loads, the Device's live figures already tell whether it has a shape: no jump.
  const hasVolume = !isGate && (shape !== null || (geometry.isPending && device.analytics !== null));
  const volumeQuery = useDeviceAnalytics(device.id, range, hasVolume);

  const xWindow = useCallback((): [number, number] => {
    const r = resolveRange(range, Date.now());
    return [r.fromMs, r.toMs];
  }, [range]);

  const trend = query.data;
  const levelTrend = trend?.mode === 'buckets' ? (trend as LevelTrend) : undefined;
  const gateChanges = trend?.mode === 'changes' ? (trend as GateChanges) : undefined;
  const offlineMs = offlineAfterMs(device);
  const { status, lastSeen } = device;

  // Live readings count only while the range reaches "now" (the builders drop older ones).
  const level = useMemo(() => {
    if (isGate) return null;
    const live = resolveRange(range, Date.now()).live ? liveHistory : [];
    return buildLevelColumns(levelTrend, live, Math.max(2.5 * (levelTrend?.bucketMs ?? 0), offlineMs));
  }, [isGate, range, liveHistory, levelTrend, offlineMs]);

  const gate = useMemo(() => {
    if (!isGate) return null;
    const r = resolveRange(range, Date.now());
    const now = Date.now();
    // An offline gate's last known state is not extended past the time it was last heard.
    const heard = status === 'online' || !lastSeen ? now : Date.parse(lastSeen);
    const segments = buildGateSegments(gateChanges, r.live ? liveHistory : [], Math.min(r.toMs, heard));
    const last = segments[segments.length - 1];
    const xs = segments.map((s) => s.startMs / 1000);
    if (last) xs.push(last.endMs / 1000);
    return { segments, data: [xs, xs.map(() => 0.5)] as [number[], number[]] };
  }, [isGate, range, liveHistory, gateChanges, status, lastSeen]);

  const maxLevel = config?.maxLevel ?? null;
  const reference = useMemo((): VolumeReference | null => {
    if (!geometry.data?.shape || maxLevel === null) return null;
    const volumeM3 = referenceVolume(geometry.data, maxLevel);
    return volumeM3 === null ? null : { volumeM3, label: geometry.data.crestLevelM != null ? 'Vertedero' : 'Volumen útil' };
  }, [geometry.data, maxLevel]);

  // The current volume (live, from the Device's figures) ends the curve while the range reaches now.
  const analytics = device.analytics;
  const volume = useMemo(() => {
    if (!hasVolume) return null;
    const series = volumeQuery.data;
    const stepMs = ANALYTICS_STEP_MS[series?.step ?? '1m'];
    const live = resolveRange(range, Date.now()).live && analytics ? { tsMs: Date.parse(analytics.at), volumeM3: analytics.volumeM3 } : null;
    return buildVolumeColumns(series?.items, stepMs, live, Math.max(2.5 * stepMs, offlineMs));
  }, [hasVolume, volumeQuery.data, range, analytics, offlineMs]);

  const empty = isGate ? (gate?.segments.length ?? 0) === 0 : (level?.count ?? 0) === 0;

  let body: ReactNode;
  let plotted = false;
  if (query.isPending) {
    body = <Skeleton className="w-full" style={{ height: height + READOUT_PX }} />;
  } else if (query.isError && !trend) {
    body = (
      <Placeholder height={height}>
        <p role="alert">No se pudo cargar el historial: {query.error.message}</p>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Reintentar
        </Button>
      </Placeholder>
    );
  } else if (empty) {
    body = <Placeholder height={height}>Sin lecturas en este rango.</Placeholder>;
  } else if (isGate && gate) {
    plotted = true;
    body = <GateTimelinePlot data={gate.data} segments={gate.segments} xWindow={xWindow} height={height} />;
  } else if (level) {
    plotted = true;
    body = (
      <LevelTrendPlot
        data={level.data}
        thresholds={levelThresholdsOf(config ?? {})}
        xWindow={xWindow}
        height={height}
      />
    );
  }

  return (
    <section data-testid="trend-chart" aria-labelledby={`trend-title-${device.id}`} className="p-4 sm:p-5">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id={`trend-title-${device.id}`} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          <LineChart aria-hidden="true" className="size-4" />
          {isGate ? 'Historial de estados' : hasVolume ? 'Tendencia del nivel y del volumen' : 'Tendencia del nivel'}
          <span className="font-normal tracking-normal normal-case">· {device.name}</span>
        </h2>
        {query.isFetching && !query.isPending ? <Spinner className="text-muted-foreground" /> : null}
      </div>
      <RangePicker value={range} onChange={setRange} />
      <div ref={boxRef} className="mt-3 min-w-0">
        {hasVolume ? (
          <div className="grid gap-x-6 gap-y-4 @5xl:grid-cols-2">
            <div className="min-w-0">
              <h3 className="mb-1 text-xs font-medium text-muted-foreground">Nivel</h3>
              {body}
            </div>
            <div className="min-w-0">
              <h3 className="mb-1 text-xs font-medium text-muted-foreground">Volumen</h3>
              {volumeBody(volumeQuery, volume, reference, xWindow, height)}
            </div>
          </div>
        ) : (
          body
        )}
      </div>
      {plotted ? (
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          {isGate ? (
            (Object.keys(GATE_BAND_LABELS) as GateBand[]).map((b) => <Swatch key={b} color={GATE_BAND_CSS[b]} label={GATE_BAND_LABELS[b]} />)
          ) : (
            <>
              <Swatch color="var(--foreground)" label="Media" line />
              <Swatch color="color-mix(in oklch, var(--foreground) 15%, transparent)" label="Mínimo–máximo" />
              {reference ? <DashSwatch label={`${reference.label} (volumen de referencia)`} /> : null}
            </>
          )}
        </div>
      ) : null}
      {gateChanges?.truncated ? (
        <p className="mt-2 text-xs text-muted-foreground">Se muestran solo los primeros cambios de estado del rango: acorte el rango para ver los más recientes.</p>
      ) : null}
    </section>
  );
}
