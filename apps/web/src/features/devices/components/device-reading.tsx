import type { Device } from '@agua/shared';
import { GateStateView } from '@/components/device/gate-state';
import { ReadingStatusBadge } from '@/components/device/reading-status';
import { gateState } from '@/lib/device-helpers';
import { formatMeasure } from '@/lib/format';

/** The current value of an online device in one line (level + status, or gate state). */
export function DeviceReading({ device, testId }: { device: Device; testId?: string }) {
  if (device.status !== 'online' || !device.reading) {
    return <span className="text-sm text-muted-foreground">{device.status === 'online' ? 'Sin lectura' : '—'}</span>;
  }
  if (device.type === 'motorized_gate') {
    return (
      <span data-testid={testId}>
        <GateStateView state={gateState(device)} />
      </span>
    );
  }
  const { value, unit } = device.reading;
  return (
    <span className="inline-flex items-center gap-2">
      <span data-testid={testId} className="text-lg font-semibold tabular-nums">
        {typeof value === 'number' ? formatMeasure(value, unit ?? 'm') : String(value)}
      </span>
      <ReadingStatusBadge status={device.reading.status} />
    </span>
  );
}
