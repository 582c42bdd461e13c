import { Link } from 'react-router';
import { ChevronRight, MapPinOff } from 'lucide-react';
import type { Device, Site } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { SiteAlarmBadge } from './site-alarm-badge';
import type { SiteAlarmLookup } from '../utils/site-status';
import { siteTree, type SiteNode } from '../utils/site-tree';

interface RowContext {
  statusOf: SiteAlarmLookup;
  count: (siteId: string) => number;
  nameOf: (siteId: string) => string | null;
}

/** A site, and the sites inside it as a list of their own, indented under it. */
function SiteRow({ node, ctx, top = false }: { node: SiteNode; ctx: RowContext; top?: boolean }) {
  const { site } = node;
  // A site at the top whose parent stands in the other group (on the map or not) names it.
  const parentName = top && site.parentId ? ctx.nameOf(site.parentId) : null;
  const status = ctx.statusOf(site.id);
  const deviceCount = ctx.count(site.id);
  return (
    <li>
      <Link
        to={`/sites/${encodeURIComponent(site.id)}`}
        data-testid={`site-row-${site.id}`}
        className="flex min-h-11 items-center gap-3 rounded-lg px-3 py-2.5 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
      >
        <span className="grid min-w-0 flex-1 gap-1">
          <span className="font-medium break-words">{site.name}</span>
          {parentName ? <span className="text-xs break-words text-muted-foreground">Dentro de {parentName}</span> : null}
          {site.address ? <span className="text-xs break-words text-muted-foreground">{site.address}</span> : null}
          <span className="flex flex-wrap items-center gap-2">
            <SiteAlarmBadge status={status} />
            <span className="text-xs text-muted-foreground">
              {deviceCount} {deviceCount === 1 ? 'dispositivo' : 'dispositivos'}
            </span>
          </span>
        </span>
        <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      </Link>
      {node.children.length > 0 ? (
        <ul className="ml-4 grid gap-0.5 border-l pl-2" aria-label={`Sitios dentro de ${site.name}`} data-testid={`site-children-${site.id}`}>
          {node.children.map((child) => (
            <SiteRow key={child.site.id} node={child} ctx={ctx} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The sites as a list beside the map (first on a phone): those on the map, then those without
 * coordinates; in each, a site's children indented under it.
 */
export function SiteList({ sites, devices, statusOf, loading }: { sites: readonly Site[]; devices: readonly Device[]; statusOf: SiteAlarmLookup; loading: boolean }) {
  const placed = sites.filter((s) => s.lat !== null && s.lon !== null);
  const unplaced = sites.filter((s) => s.lat === null || s.lon === null);
  const ctx: RowContext = {
    statusOf,
    count: (id) => devices.filter((d) => d.siteId === id).length,
    nameOf: (id) => sites.find((s) => s.id === id)?.name ?? null,
  };
  return (
    <Card className="grid gap-1 p-2" aria-labelledby="site-list-title">
      <h2 id="site-list-title" className="px-3 pt-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Sitios
      </h2>
      {loading ? <p className="px-3 py-2 text-sm text-muted-foreground">Cargando sitios…</p> : null}
      {!loading && sites.length === 0 ? <p className="px-3 py-2 text-sm text-muted-foreground">No hay sitios registrados.</p> : null}
      <ul className="grid gap-0.5">
        {siteTree(placed).map((node) => (
          <SiteRow key={node.site.id} node={node} ctx={ctx} top />
        ))}
      </ul>
      {unplaced.length > 0 ? (
        <>
          <h3 className="mt-2 flex items-center gap-1.5 px-3 pt-2 text-xs font-semibold text-muted-foreground">
            <MapPinOff aria-hidden="true" className="size-3.5" />
            Sin coordenadas (no están en el mapa)
          </h3>
          <ul className="grid gap-0.5" data-testid="sites-without-coordinates">
            {siteTree(unplaced).map((node) => (
              <SiteRow key={node.site.id} node={node} ctx={ctx} top />
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
