import { ISO_WEEKDAY_LABELS } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { ALL_DAYS, sortDays, WORKDAYS } from '../utils/schedule-texts';

const FULL_NAMES: Record<number, string> = { 1: 'Lunes', 2: 'Martes', 3: 'Miércoles', 4: 'Jueves', 5: 'Viernes', 6: 'Sábado', 7: 'Domingo' };

/**
 * Lun…Dom as seven toggles (checkboxes drawn as chips, one row even on a phone), and the two
 * usual sets. Nothing stops an empty choice: the server's reason is shown under it.
 */
export function WeekdayPicker({ id, days, onChange }: { id: string; days: readonly number[]; onChange: (days: number[]) => void }) {
  const toggle = (day: number) => onChange(days.includes(day) ? days.filter((d) => d !== day) : sortDays([...days, day]));
  return (
    <div className="grid gap-2">
      <div className="grid grid-cols-7 gap-1">
        {ALL_DAYS.map((day) => (
          <label key={day} className="relative">
            <input
              type="checkbox"
              className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-md outline-none"
              aria-label={FULL_NAMES[day]}
              data-testid={`${id}-day-${day}`}
              checked={days.includes(day)}
              onChange={() => toggle(day)}
            />
            <span
              aria-hidden="true"
              className={cn(
                'pointer-events-none flex h-11 items-center justify-center rounded-md border text-sm font-medium transition-colors select-none',
                'peer-checked:border-primary peer-checked:bg-primary peer-checked:text-primary-foreground',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring',
              )}
            >
              {ISO_WEEKDAY_LABELS[day]}
            </span>
          </label>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...ALL_DAYS])}>
          Todos los días
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...WORKDAYS])}>
          Laborables
        </Button>
      </div>
    </div>
  );
}
