import { SITE_LIMITS, type Site } from '@agua/shared';

export interface SiteFormValues {
  name: string;
  /** The site this one is inside ('' for none). */
  parentId: string;
  lat: string;
  lon: string;
  address: string;
}

export type SiteFormErrors = Partial<Record<keyof SiteFormValues, string>>;

export const SITE_FIELD_ORDER = ['name', 'parentId', 'lat', 'lon', 'address'] as const;

export function siteFormFrom(site: Site | null): SiteFormValues {
  return { name: site?.name ?? '', parentId: site?.parentId ?? '', lat: site?.lat?.toString() ?? '', lon: site?.lon?.toString() ?? '', address: site?.address ?? '' };
}

/** A coordinate as typed: a comma or a point for the decimals; '' is none. */
export function parseCoordinate(text: string): number | null | undefined {
  const t = text.trim().replace(',', '.').replace('\u2212', '-');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** The form's values checked as the server checks them (docs/sites.md), and the body to send. */
export function readSiteForm(v: SiteFormValues): { errors: SiteFormErrors; body: { name: string; parentId: string | null; lat: number | null; lon: number | null; address: string | null } } {
  const errors: SiteFormErrors = {};
  const name = v.name.trim();
  if (name.length === 0) errors.name = 'Escriba el nombre del sitio.';
  else if (name.length > SITE_LIMITS.nameMax) errors.name = `El nombre admite hasta ${SITE_LIMITS.nameMax} caracteres.`;
  const lat = parseCoordinate(v.lat);
  const lon = parseCoordinate(v.lon);
  if (lat === undefined || (lat !== null && (lat < -90 || lat > 90))) errors.lat = 'La latitud es un número entre −90 y 90.';
  if (lon === undefined || (lon !== null && (lon < -180 || lon > 180))) errors.lon = 'La longitud es un número entre −180 y 180.';
  if (!errors.lat && !errors.lon && (lat === null) !== (lon === null)) errors[lat === null ? 'lat' : 'lon'] = 'Escriba la latitud y la longitud, o ninguna.';
  const address = v.address.trim();
  if (address.length > SITE_LIMITS.addressMax) errors.address = `La dirección admite hasta ${SITE_LIMITS.addressMax} caracteres.`;
  return { errors, body: { name, parentId: v.parentId || null, lat: lat ?? null, lon: lon ?? null, address: address || null } };
}
