/** Time left as m:ss ('9:05'); '0:00' once past. */
export function formatTimeLeft(untilMs: number, nowMs: number): string {
  const s = Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
