import type { Device } from '@agua/shared';
import { levelConfig, offlineAfterMs } from '@/lib/device-helpers';
import { useLiveHistory } from '@/lib/live-socket';
import { SPARKLINE_WINDOW_MS, useLevelTrend } from '../api/get-level-trend';
import { Sparkline } from './sparkline';

/** The card's sparkline: stored last hour (downsampled) continued by the live readings. */
export function LevelSparkline({ device, now, className }: { device: Device; now: number; className?: string }) {
  const config = levelConfig(device);
  const trend = useLevelTrend(device.id);
  const live = useLiveHistory(device.id);
  if (!config) return <div className="h-10" aria-hidden="true" />;
  const bucketMs = trend.data?.bucketMs ?? 0;
  return (
    <Sparkline
      trend={trend.data}
      live={live}
      maxLevel={config.maxLevel}
      now={now}
      windowMs={SPARKLINE_WINDOW_MS}
      gapMs={Math.max(2.5 * bucketMs, offlineAfterMs(device))}
      className={className}
    />
  );
}
