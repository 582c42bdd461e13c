import { SITE_LIMITS } from '@agua/shared';
import { unprocessable } from '../../lib/errors';

/** A site's values as they will be stored (name trimmed). */
export interface SiteValues {
  name: string;
  parentId: string | null;
  lat: number | null;
  lon: number | null;
  address: string | null;
}

const invalid = (field: string, reason: string) => unprocessable('SITE_INVALID', { field, reason });

/**
 * Refuses values a site cannot have (docs/sites.md): `422 SITE_INVALID` naming the field and
 * why, in Spanish for the form. The shape was checked by the route's schema (400); the parent's
 * existence and cycles by `assertParentAllowed`, uniqueness by the service.
 */
export function assertValidSite(v: SiteValues): void {
  if (v.name.length < 1 || v.name.length > SITE_LIMITS.nameMax) throw invalid('name', `El nombre debe tener entre 1 y ${SITE_LIMITS.nameMax} caracteres.`);
  if ((v.lat === null) !== (v.lon === null)) throw invalid(v.lat === null ? 'lat' : 'lon', 'Indique latitud y longitud juntas, o ninguna.');
  if (v.lat !== null && !(Number.isFinite(v.lat) && v.lat >= -90 && v.lat <= 90)) throw invalid('lat', 'La latitud debe estar entre -90 y 90.');
  if (v.lon !== null && !(Number.isFinite(v.lon) && v.lon >= -180 && v.lon <= 180)) throw invalid('lon', 'La longitud debe estar entre -180 y 180.');
  if (v.address !== null && v.address.length > SITE_LIMITS.addressMax) throw invalid('address', `La dirección admite como mucho ${SITE_LIMITS.addressMax} caracteres.`);
}

/**
 * A site may hang from an existing site, never from itself or from one of its own descendants:
 * the tree stays a tree. `parentOf` maps every site to its parent (all sites, few of them).
 */
export function assertParentAllowed(siteId: string | null, parentId: string | null, parentOf: ReadonlyMap<string, string | null>): void {
  if (parentId === null) return;
  if (!parentOf.has(parentId)) throw invalid('parentId', 'Sitio superior desconocido.');
  if (parentId === siteId) throw invalid('parentId', 'Un sitio no puede estar dentro de sí mismo.');
  // Walk up from the new parent: meeting the site itself means the parent is one of its descendants.
  const seen = new Set<string>();
  for (let at: string | null | undefined = parentId; at != null && !seen.has(at); at = parentOf.get(at)) {
    if (at === siteId) throw invalid('parentId', 'Un sitio no puede estar dentro de uno de sus propios sitios.');
    seen.add(at);
  }
}
