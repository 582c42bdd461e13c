import { Card } from '@/components/ui/card';
import { useAlarmStats } from '../api/alarm-stats';

const number = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2 });

function ackTime(seconds: number | null): string {
  if (seconds === null) return '—';
  return seconds < 120 ? `${number.format(seconds)} s` : `${number.format(seconds / 60)} min`;
}

/** The ISA-18.2 figures of one period: how loaded the operators were. */
function Period({ title, hours }: { title: string; hours: number }) {
  const { data } = useAlarmStats(hours);
  const rows: Array<[string, string]> = data
    ? [
        ['Alarmas', String(data.total)],
        ['Máx. en 10 min', String(data.perTenMinutes.max)],
        ['Media en 10 min', number.format(data.perTenMinutes.mean)],
        ['Avalanchas (> 10 en 10 min)', String(data.floods)],
        ['Reglas intermitentes', String(data.chattering.length)],
        ['Activas más de 24 h', String(data.standing)],
        ['Tiempo medio hasta reconocer', ackTime(data.meanTimeToAckS)],
      ]
    : [];
  return (
    <Card className="p-4">
      <h3 className="text-sm font-semibold">{title}</h3>
      <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

export function AlarmFigures() {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Period title="Últimas 24 horas" hours={24} />
      <Period title="Últimos 7 días" hours={24 * 7} />
    </div>
  );
}
