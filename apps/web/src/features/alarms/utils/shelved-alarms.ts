import type { Alarm } from '@agua/shared';

/**
 * The 'Alarmas' screen's two lists: the alarms that are active (in the server's order: highest
 * priority first, then newest) and the shelved ones, whose shelving ends first at the top. A
 * shelved alarm is hidden on purpose, so it is listed apart rather than among those that need eyes.
 */
export function splitShelved(alarms: readonly Alarm[]): { active: Alarm[]; shelved: Alarm[] } {
  const active: Alarm[] = [];
  const shelved: Alarm[] = [];
  for (const a of alarms) (a.state === 'shelved' ? shelved : active).push(a);
  shelved.sort((x, y) => until(x) - until(y));
  return { active, shelved };
}

const until = (a: Alarm) => (a.shelvedUntil ? Date.parse(a.shelvedUntil) : Number.POSITIVE_INFINITY);

/** How long a shelving still lasts, in Spanish: 'quedan 29 min', 'quedan 2 h 5 min'. */
export function shelvingLeft(shelvedUntil: string, now: number): string {
  const minutes = Math.ceil((Date.parse(shelvedUntil) - now) / 60_000);
  if (!(minutes > 0)) return 'vence ahora';
  if (minutes < 60) return `quedan ${minutes} min`;
  const rest = minutes % 60;
  return `quedan ${Math.floor(minutes / 60)} h${rest > 0 ? ` ${rest} min` : ''}`;
}
