/** Number labels of value axes (uPlot `values`), in the app's locale. */
import { LOCALE } from '@/lib/format';

const axisNumber = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });

/** '0 m', '2,5 m' … */
export function metreAxisValues(splits: number[]): string[] {
  return splits.map((v) => `${axisNumber.format(v)} m`);
}

/** '0 %', '50 %' … */
export function percentAxisValues(splits: number[]): string[] {
  return splits.map((v) => `${axisNumber.format(v)} %`);
}

/** '0 m³', '120 m³', '1,5 m³' … */
export function cubicMetreAxisValues(splits: number[]): string[] {
  return splits.map((v) => `${axisNumber.format(v)} m³`);
}
