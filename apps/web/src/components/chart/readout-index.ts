/**
 * Which point a chart's readout describes: the one under the cursor, or, with the cursor away,
 * the newest one that has a value; null when there is none.
 */
export function readoutIndex(values: ReadonlyArray<number | null | undefined>, cursorIdx: number | null | undefined): number | null {
  if (cursorIdx != null) return cursorIdx;
  for (let k = values.length - 1; k >= 0; k--) if (values[k] != null) return k;
  return null;
}
