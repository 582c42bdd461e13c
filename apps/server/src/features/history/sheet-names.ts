import { EXCEL_SHEET_NAME_MAX } from '@agua/shared';

/** Characters Excel refuses in a sheet name (docs/api.md), and ones XML cannot carry. */
// eslint-disable-next-line no-control-regex
const INVALID = /[[\]:*?/\\\u0000-\u001f\u007f\ufffe\uffff]/g;

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair (Excel counts units). */
function cut(name: string, max: number): string {
  if (name.length <= max) return name;
  const code = name.charCodeAt(max - 1);
  return name.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** A device name made valid for Excel: invalid characters become '-', then cut to 30. */
export function validSheetName(deviceName: string): string {
  let name = deviceName.replace(INVALID, '-');
  // Excel also refuses an apostrophe at either end; an empty name cannot happen (names need a non-space).
  name = name.replace(/^'/, '-').replace(/'$/, '-');
  name = cut(name, EXCEL_SHEET_NAME_MAX);
  return name.replace(/'$/, '-') || '-';
}

/**
 * Hands out the sheet names of one workbook, in order (docs/api.md): the valid name, and when it is
 * taken (regardless of case) the name ending in ' (2)', ' (3)'… cut so that the whole stays
 * within 30 characters. A device that overflows a sheet asks again with its own name.
 */
export class SheetNamer {
  // 'History' is reserved by Excel: a device so named gets 'History (2)'.
  private readonly used = new Set<string>(['history']);

  next(deviceName: string): string {
    const base = validSheetName(deviceName);
    let name = base;
    for (let n = 2; this.used.has(name.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      name = cut(base, EXCEL_SHEET_NAME_MAX - suffix.length) + suffix;
    }
    this.used.add(name.toLowerCase());
    return name;
  }
}
