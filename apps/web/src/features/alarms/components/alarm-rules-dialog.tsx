import { useState, type FormEvent } from 'react';
import { BellRing, Save } from 'lucide-react';
import {
  ALARM_KIND_LABELS,
  ALARM_PRIORITY_LABELS,
  ALARM_RULE_LIMITS,
  isLevelSetpointKind,
  type AlarmKind,
  type AlarmRule,
  type AlarmRuleUpdateBody,
  type Device,
} from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useAlarmRules, useSaveAlarmRule } from '../api/alarm-rules-api';

/** The 'Alarmas' part of device administration (manage_devices): a button that opens the device's rules. */
export function AlarmRulesButton({ device }: { device: Device }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" className="justify-self-start" onClick={() => setOpen(true)}>
        <BellRing aria-hidden="true" />
        Reglas de alarma
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent data-testid="alarm-rules-dialog" className="max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Reglas de alarma · {device.name}</DialogTitle>
            <DialogDescription>Puntos de ajuste en % del nivel máximo o en metros; la banda muerta evita que la alarma oscile.</DialogDescription>
          </DialogHeader>
          {open ? <RulesList deviceId={device.id} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function RulesList({ deviceId }: { deviceId: string }) {
  const rules = useAlarmRules(deviceId, true);
  if (rules.isPending) return <Spinner />;
  if (rules.isError) return <FormAlert message={rules.error.message} />;
  return (
    <div className="grid gap-3">
      {rules.data.map((rule) => (
        <RuleRow key={rule.id} deviceId={deviceId} rule={rule} />
      ))}
    </div>
  );
}

/** What the server's 422 means for this form, in the operator's words. */
const RULE_PROBLEMS: Record<string, string> = {
  high_not_above_low: 'Un punto de ajuste alto debe quedar por encima de los bajos de este equipo.',
  setpoint_above_max_level: 'El punto de ajuste en metros debe quedar por debajo del nivel máximo del equipo.',
  setpoint_pct_and_m: 'Indique el punto de ajuste en % o en metros, no ambos.',
  deadband_too_large: `La banda muerta debe ser menor que ${ALARM_RULE_LIMITS.deadbandPctMax} %.`,
  not_for_kind: 'Este tipo de alarma no tiene ese ajuste.',
};

type NumberField = 'setpointPct' | 'setpointM' | 'setpointMin' | 'ratePerMin' | 'windowS' | 'deadbandPct' | 'onDelayS' | 'offDelayS';

/** How a level rule's setpoint is given: in % of the device's maximum, or in metres (absolute). */
type SetpointUnit = 'pct' | 'm';

const FIELD_LABELS: Record<NumberField, string> = {
  setpointPct: 'Punto de ajuste (%)',
  setpointM: 'Punto de ajuste (m)',
  setpointMin: 'Desborde en menos de (min)',
  ratePerMin: 'Límite (m/min)',
  windowS: 'Ventana (s)',
  deadbandPct: 'Banda muerta (%)',
  onDelayS: 'Retardo activación (s)',
  offDelayS: 'Retardo normalización (s)',
};

/**
 * The settings that mean something for a kind: a setpoint (in % or in metres) and its deadband
 * for level alarms, a rate and window for the rise, the minutes and deadband of the overflow
 * forecast, and no delays for 'command_failed' (an event, not a condition).
 */
function fieldsOf(kind: AlarmKind, unit: SetpointUnit): NumberField[] {
  const delays: NumberField[] = kind === 'command_failed' ? [] : ['onDelayS', 'offDelayS'];
  if (isLevelSetpointKind(kind)) return [unit === 'm' ? 'setpointM' : 'setpointPct', 'deadbandPct', ...delays];
  if (kind === 'rate_of_rise') return ['ratePerMin', 'windowS', ...delays];
  if (kind === 'time_to_overflow') return ['setpointMin', 'deadbandPct', ...delays];
  return delays;
}

const ALL_FIELDS: NumberField[] = ['setpointPct', 'setpointM', 'setpointMin', 'ratePerMin', 'windowS', 'deadbandPct', 'onDelayS', 'offDelayS'];

interface RuleProblem {
  message: string;
  field: string | null;
}

function ruleProblem(err: unknown): RuleProblem {
  if (!isApiError(err)) return { message: err instanceof Error ? err.message : String(err), field: null };
  const { reason, field } = (err.details ?? {}) as { reason?: string; field?: string };
  return { message: (reason && RULE_PROBLEMS[reason]) ?? err.message, field: field ?? null };
}

const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(',', '.')));

function RuleRow({ deviceId, rule }: { deviceId: string; rule: AlarmRule }) {
  const save = useSaveAlarmRule(deviceId);
  const levelRule = isLevelSetpointKind(rule.kind);
  const [unit, setUnit] = useState<SetpointUnit>(rule.setpointM !== undefined && rule.setpointM !== null ? 'm' : 'pct');
  const fields = fieldsOf(rule.kind, unit);
  const [enabled, setEnabled] = useState(rule.enabled);
  const [priority, setPriority] = useState(String(rule.priority));
  const [numbers, setNumbers] = useState(() => Object.fromEntries(ALL_FIELDS.map((f) => [f, rule[f]?.toString() ?? ''])) as Partial<Record<NumberField, string>>);
  const [problem, setProblem] = useState<RuleProblem | null>(null);
  const id = (field: string) => `rule-${rule.id}-${field}`;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    const changes: AlarmRuleUpdateBody = { enabled, priority: Number(priority), ...Object.fromEntries(fields.map((f) => [f, numberOrUndefined(numbers[f] ?? '')])) };
    try {
      await save.mutateAsync({ ruleId: rule.id, changes });
      toast({ title: 'Regla guardada', description: ALARM_KIND_LABELS[rule.kind], variant: 'success' });
    } catch (err) {
      setProblem(ruleProblem(err));
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} data-testid={`alarm-rule-${rule.kind}`} className="grid gap-2 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="inline-flex items-center gap-2 font-medium">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} className="size-4" />
          {ALARM_KIND_LABELS[rule.kind]}
        </label>
        <div className="flex flex-wrap items-center gap-2">
          {levelRule ? (
            <NativeSelect aria-label="Punto de ajuste en" value={unit} onChange={(e) => setUnit(e.target.value as SetpointUnit)} className="h-9 w-36">
              <option value="pct">% del máximo</option>
              <option value="m">metros</option>
            </NativeSelect>
          ) : null}
          <NativeSelect aria-label="Prioridad" value={priority} onChange={(e) => setPriority(e.target.value)} className="h-9 w-32">
            {([1, 2, 3, 4] as const).map((p) => (
              <option key={p} value={p}>
                {ALARM_PRIORITY_LABELS[p]}
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? <Spinner /> : <Save aria-hidden="true" />}
            Guardar
          </Button>
        </div>
      </div>
      {fields.length > 0 ? (
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {fields.map((f) => (
            <label key={f} className="grid gap-1 text-xs text-muted-foreground" htmlFor={id(f)}>
              {FIELD_LABELS[f]}
              <Input
                id={id(f)}
                type="number"
                step={f === 'windowS' || f.endsWith('DelayS') ? '1' : 'any'}
                min={f === 'setpointM' ? 0 : undefined}
                value={numbers[f] ?? ''}
                aria-invalid={problem?.field === f ? true : undefined}
                aria-describedby={problem?.field === f ? id('error') : undefined}
                onChange={(e) => setNumbers((n) => ({ ...n, [f]: e.target.value }))}
                className="h-9"
              />
            </label>
          ))}
        </div>
      ) : null}
      <div id={id('error')}>
        <FormAlert message={problem?.message ?? null} />
      </div>
    </form>
  );
}
