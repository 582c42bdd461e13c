import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { AlarmPriority, Site } from '@agua/shared';
import { cn } from '@/lib/utils';
import { SiteAlarmBadge } from './site-alarm-badge';
import type { SiteAlarmLookup } from '../utils/site-status';

/** The marker's dot in its priority's colour (the alarm badges' fills); grey without alarms. */
const DOT_COLORS: Record<AlarmPriority, string> = { 1: 'bg-red-600', 2: 'bg-orange-500', 3: 'bg-yellow-300', 4: 'bg-violet-600' };

export type PlacedSite = Site & { lat: number; lon: number };

/** Text for Leaflet's attribution, which it writes as HTML: the server's setting is shown as typed. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Touch first (a phone or a tablet: the primary pointer is a finger): one finger scrolls the page and
 * two move and zoom the map. Leaflet's own dragging is off there — its CSS then leaves one-finger
 * panning to the browser (`touch-action: pan-x pan-y`) while the pinch (touchZoom) moves and zooms
 * the map — and a mouse used on such a device turns it back on for itself. Elsewhere nothing
 * changes: the mouse drags, the keyboard moves.
 */
function touchFirst(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

interface MarkerSlot {
  siteId: string;
  element: HTMLElement;
}

/**
 * The sites on a Leaflet map: one marker each, drawn by React into the marker's own element (a
 * portal) so that it says what the list says; a click or Enter opens the site. Tiles only when the
 * server names a tile server (MAP_TILE_URL); without one the markers stand on a neutral
 * background with the scale, which works with no network at all.
 */
export function SiteMap({
  sites,
  statusOf,
  tileUrl,
  attribution,
  onOpen,
  className,
}: {
  sites: readonly PlacedSite[];
  statusOf: SiteAlarmLookup;
  tileUrl: string | null;
  attribution: string | null;
  onOpen: (siteId: string) => void;
  className?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const openRef = useRef(onOpen);
  const [slots, setSlots] = useState<MarkerSlot[]>([]);
  const [twoFingers] = useState(touchFirst);
  const [hint, setHint] = useState(false);
  openRef.current = onOpen;

  // The map itself: once, with its tiles (or none), zoom buttons in Spanish and the scale.
  useEffect(() => {
    if (!host.current) return;
    const el = host.current;
    const map = L.map(el, { zoomControl: false, attributionControl: true, center: [40.4168, -3.7038], zoom: 12, dragging: !twoFingers });
    map.attributionControl.setPrefix(false);
    L.control.zoom({ zoomInTitle: 'Acercar', zoomOutTitle: 'Alejar' }).addTo(map);
    L.control.scale({ imperial: false }).addTo(map);
    if (tileUrl) L.tileLayer(tileUrl, { attribution: attribution ? escapeHtml(attribution) : undefined, maxZoom: 19 }).addTo(map);
    mapRef.current = map;
    let hideHint: ReturnType<typeof setTimeout> | undefined;
    // Before Leaflet's own handlers (capture): a mouse drags as anywhere else, a finger does not.
    const onPointerDown = (e: PointerEvent) => {
      if (!twoFingers) return;
      if (e.pointerType === 'mouse') map.dragging.enable();
      else map.dragging.disable();
    };
    // One finger moving on the map scrolls the page; a note says how to move the map instead.
    const onTouchMove = (e: TouchEvent) => {
      if (!twoFingers || map.dragging.enabled()) return;
      clearTimeout(hideHint);
      setHint(e.touches.length === 1);
      hideHint = setTimeout(() => setHint(false), 1500);
    };
    el.addEventListener('pointerdown', onPointerDown, true);
    el.addEventListener('touchmove', onTouchMove, { passive: true });
    return () => {
      clearTimeout(hideHint);
      el.removeEventListener('pointerdown', onPointerDown, true);
      el.removeEventListener('touchmove', onTouchMove);
      map.remove();
      mapRef.current = null;
    };
  }, [tileUrl, attribution, twoFingers]);

  // The markers: rebuilt when the sites move; what each says is rendered below through a portal.
  const key = sites.map((s) => `${s.id}:${s.lat}:${s.lon}`).join('|');
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const made = sites.map((site) => {
      const element = document.createElement('div');
      const marker = L.marker([site.lat, site.lon], {
        icon: L.divIcon({ html: element, className: 'site-marker rounded-lg outline-offset-2 focus-visible:outline-2 focus-visible:outline-ring', iconSize: undefined, iconAnchor: [8, 8] }),
        keyboard: true,
        riseOnHover: true,
      }).addTo(map);
      marker.on('click', () => openRef.current(site.id));
      const icon = marker.getElement();
      icon?.setAttribute('data-testid', `site-marker-${site.id}`);
      icon?.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          openRef.current(site.id);
        }
      });
      return { marker, slot: { siteId: site.id, element } };
    });
    if (sites.length === 1) map.setView([sites[0]!.lat, sites[0]!.lon], 15);
    else if (sites.length > 1) {
      // Each marker's card hangs to the right of and below its point: room for it on those sides.
      const width = map.getSize().x;
      map.fitBounds(L.latLngBounds(sites.map((s) => [s.lat, s.lon] as [number, number])), { paddingTopLeft: [32, 32], paddingBottomRight: [Math.min(240, width * 0.55), 90], maxZoom: 16 });
    }
    setSlots(made.map((m) => m.slot));
    return () => {
      for (const m of made) m.marker.remove();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the sites' places
  }, [key, tileUrl, attribution]);

  const byId = new Map(sites.map((s) => [s.id, s]));
  return (
    <div className={cn('relative isolate z-0', className)}>
      <div ref={host} data-testid="site-map" data-tiles={tileUrl ? 'on' : 'off'} data-pan={twoFingers ? 'two-fingers' : 'drag'} className="size-full rounded-xl border !bg-muted !font-sans">
        {slots.map((slot) => {
          const site = byId.get(slot.siteId);
          if (!site) return null;
          const status = statusOf(site.id);
          return createPortal(
            // Pinned at its point: the dot sits on the coordinates, the label beside it.
            <span className="pointer-events-none flex items-start gap-1">
              <span aria-hidden="true" className={cn('size-4 shrink-0 rounded-full border-2 border-card shadow', status === null || status.worst === null ? 'bg-off' : DOT_COLORS[status.worst])} />
              <span className="grid w-max max-w-56 gap-1 rounded-lg border bg-card px-2 py-1.5 text-card-foreground shadow-md">
                <span className="text-sm leading-tight font-semibold">{site.name}</span>
                <SiteAlarmBadge status={status} />
              </span>
            </span>,
            slot.element,
            slot.siteId,
          );
        })}
      </div>
      {twoFingers ? (
        <div
          aria-hidden="true"
          data-testid="map-two-fingers"
          data-shown={hint ? 'true' : 'false'}
          className={cn(
            'pointer-events-none absolute inset-0 z-[1000] grid place-items-center rounded-xl bg-black/45 p-6 text-center text-base font-semibold text-white transition-opacity',
            hint ? 'opacity-100' : 'opacity-0',
          )}
        >
          Use dos dedos para mover el mapa
        </div>
      ) : null}
    </div>
  );
}
