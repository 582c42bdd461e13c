import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { LineChart } from 'lucide-react';
import { levelThresholdsOf, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { levelConfig, offlineAfterMs } from '@/lib/device-helpers';
import { useLiveHistory } from '@/lib/live-socket';
import { useDeviceTrend, type GateChanges, type LevelTrend } from '../api/get-device-readings';
import { useElementWidth } from '../hooks/use-element-width';
import { buildGateSegments } from '../utils/gate-segments';
import { buildLevelColumns } from '@/components/chart/level-series';
import { resolveRange, type TrendRange } from '../utils/time-range';
import { GATE_BAND_CSS, GATE_BAND_LABELS, GateTimelinePlot, type GateBand } from './gate-timeline-plot';
import { LevelTrendPlot } from './level-trend-plot';
import { RangePicker } from './range-picker';

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

/**
 * The device's history on /devices, full width above its panel: level trend or gate periods, live
 * at the end. Opens on the last hour (what an operator checks first); longer ranges are a click away.
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
          {isGate ? 'Historial de estados' : 'Tendencia del nivel'}
          <span className="font-normal tracking-normal normal-case">· {device.name}</span>
        </h2>
        {query.isFetching && !query.isPending ? <Spinner className="text-muted-foreground" /> : null}
      </div>
      <RangePicker value={range} onChange={setRange} />
      <div ref={boxRef} className="mt-3 min-w-0">
        {body}
      </div>
      {plotted ? (
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          {isGate ? (
            (Object.keys(GATE_BAND_LABELS) as GateBand[]).map((b) => <Swatch key={b} color={GATE_BAND_CSS[b]} label={GATE_BAND_LABELS[b]} />)
          ) : (
            <>
              <Swatch color="var(--foreground)" label="Media" line />
              <Swatch color="color-mix(in oklch, var(--foreground) 15%, transparent)" label="Mínimo–máximo" />
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
