import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Grid3x3, ImageUp, Plus, Redo2, Save, Trash2, Undo2 } from 'lucide-react';
import { SYNOPTIC_LIMITS, SYNOPTIC_ROTATIONS, type Alarm, type Device, type SynopticItem, type SynopticRotation, type SynopticSymbol } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { SymbolShape, SynopticBackdrop } from './synoptic-symbols';
import { describeItem } from '../utils/synoptic-item';
import { clampItem, DEFAULT_SIZES, GRID, moveItem, placeNew, resizeItem, snap, symbolOfDevice, symbolsFor, SYMBOL_LABELS, svgBytes, type Draft } from '../utils/synoptic-edit';

const HINT_ID = 'synoptic-editor-keys';

interface Drag {
  id: string;
  mode: 'move' | 'resize';
  start: { x: number; y: number };
  origin: SynopticItem;
  before: Draft;
  moved: boolean;
}

function toDrawing(svg: SVGSVGElement, clientX: number, clientY: number): { x: number; y: number } {
  const ctm = svg.getScreenCTM();
  if (!ctm) return { x: clientX, y: clientY };
  const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
  return { x: p.x, y: p.y };
}

/**
 * The synoptic editor (docs/sites.md): the site's devices and the symbols in a palette; items
 * dragged with the mouse or moved with the keyboard on a 20-unit grid; their properties; the
 * background; undo. `onSave` sends the draft; what the server says comes back through the parent.
 */
export function SynopticEditor({
  initial,
  devices,
  siteDevices,
  saving,
  onSave,
}: {
  initial: Draft;
  devices: readonly Device[];
  siteDevices: readonly Device[];
  saving: boolean;
  onSave: (draft: Draft) => void;
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [past, setPast] = useState<Draft[]>([]);
  const [future, setFuture] = useState<Draft[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const drag = useRef<Drag | null>(null);
  const idPrefix = useId().replace(/:/g, '');
  const selected = draft.items.find((i) => i.id === selectedId) ?? null;
  const byId = new Map(devices.map((d) => [d.id, d]));
  const now = Date.now();

  /** A change that undo can take back (computed from the draft shown: one event, one step of history). */
  function commit(next: Draft | ((d: Draft) => Draft)) {
    const value = typeof next === 'function' ? next(draft) : next;
    if (value === draft) return;
    setPast((p) => [...p.slice(-99), draft]);
    setFuture([]);
    setDraft(value);
  }

  const updateItem = (id: string, change: (item: SynopticItem) => SynopticItem) => commit((d) => ({ ...d, items: d.items.map((i) => (i.id === id ? change(i) : i)) }));
  const removeItem = (id: string) => {
    commit((d) => ({ ...d, items: d.items.filter((i) => i.id !== id) }));
    setSelectedId(null);
  };
  const addItem = (symbol: SynopticSymbol, device: Device | null) => {
    const item = placeNew(symbol, device?.id ?? null, symbol === 'label' ? 'Texto' : '', draft);
    commit((d) => ({ ...d, items: [...d.items, item] }));
    setSelectedId(item.id);
    // Focus the new item, so that the keyboard can place it at once.
    requestAnimationFrame(() => document.querySelector<SVGGElement>(`[data-editor-item="${item.id}"]`)?.focus());
  };

  function undo() {
    const previous = past.at(-1);
    if (!previous) return;
    setPast((p) => p.slice(0, -1));
    setFuture((f) => [draft, ...f]);
    setDraft(previous);
  }
  function redo() {
    const next = future[0];
    if (!next) return;
    setFuture((f) => f.slice(1));
    setPast((p) => [...p, draft]);
    setDraft(next);
  }

  function onEditorKeyDown(e: KeyboardEvent) {
    const inField = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
    if (inField || !(e.ctrlKey || e.metaKey)) return;
    if (e.key.toLowerCase() === 'z' && !e.shiftKey) {
      e.preventDefault();
      undo();
    } else if (e.key.toLowerCase() === 'y' || (e.key.toLowerCase() === 'z' && e.shiftKey)) {
      e.preventDefault();
      redo();
    }
  }

  function onItemKeyDown(e: KeyboardEvent, item: SynopticItem) {
    const steps: Record<string, [number, number]> = { ArrowLeft: [-GRID, 0], ArrowRight: [GRID, 0], ArrowUp: [0, -GRID], ArrowDown: [0, GRID] };
    const step = steps[e.key];
    if (step) {
      e.preventDefault();
      updateItem(item.id, (i) => (e.shiftKey ? resizeItem(i, step[0], step[1], draft) : moveItem(i, step[0], step[1], draft)));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      removeItem(item.id);
    }
  }

  function onPointerDown(e: PointerEvent<SVGElement>, item: SynopticItem, mode: Drag['mode']) {
    if (e.button !== 0 || !svgRef.current) return;
    e.stopPropagation();
    setSelectedId(item.id);
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
    drag.current = { id: item.id, mode, start: toDrawing(svgRef.current, e.clientX, e.clientY), origin: item, before: draft, moved: false };
  }
  function onPointerMove(e: PointerEvent<SVGElement>) {
    const d = drag.current;
    if (!d || !svgRef.current) return;
    const p = toDrawing(svgRef.current, e.clientX, e.clientY);
    const dx = p.x - d.start.x;
    const dy = p.y - d.start.y;
    if (!d.moved && Math.abs(dx) < 4 && Math.abs(dy) < 4) return;
    d.moved = true;
    const o = d.origin;
    const next = d.mode === 'move' ? clampItem({ ...o, x: snap(o.x + dx), y: snap(o.y + dy) }, draft.width, draft.height) : clampItem({ ...o, w: snap(o.w + dx), h: snap(o.h + dy) }, draft.width, draft.height);
    setDraft((current) => ({ ...current, items: current.items.map((i) => (i.id === d.id ? next : i)) }));
  }
  function onPointerUp() {
    const d = drag.current;
    drag.current = null;
    if (d?.moved) {
      setPast((p) => [...p.slice(-99), d.before]);
      setFuture([]);
    }
  }

  async function onFile(file: File | undefined) {
    setFileError(null);
    if (!file) return;
    const svg = await file.text();
    if (svgBytes(svg) > SYNOPTIC_LIMITS.svgMaxBytes) {
      setFileError('El fondo SVG supera los 2 MB.');
      return;
    }
    if (!/<svg[\s>]/i.test(svg)) {
      setFileError('El archivo no es un dibujo SVG.');
      return;
    }
    commit((d) => ({ ...d, background: { kind: 'svg', svg } }));
  }

  const placed = new Set(draft.items.map((i) => i.deviceId).filter(Boolean));
  const unplaced = siteDevices.filter((d) => !placed.has(d.id));

  return (
    <div className="grid items-start gap-6 @5xl:grid-cols-[minmax(0,1fr)_22rem]" onKeyDown={onEditorKeyDown}>
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" onClick={undo} disabled={past.length === 0} aria-keyshortcuts="Control+Z">
            <Undo2 aria-hidden="true" />
            Deshacer
          </Button>
          <Button variant="outline" onClick={redo} disabled={future.length === 0} aria-keyshortcuts="Control+Y">
            <Redo2 aria-hidden="true" />
            Rehacer
          </Button>
          <Button className="ml-auto" onClick={() => onSave(draft)} disabled={saving}>
            {saving ? <Spinner /> : <Save aria-hidden="true" />}
            {saving ? 'Guardando…' : 'Guardar'}
          </Button>
        </div>
        <p id={HINT_ID} className="text-xs text-muted-foreground">
          Tab elige un elemento; las flechas lo mueven {GRID} unidades, Mayús + flechas cambia su tamaño, Supr lo quita, Ctrl + Z deshace. Con el ratón: arrastre para mover, y la esquina
          inferior derecha para cambiar el tamaño.
        </p>
        <svg
          ref={svgRef}
          data-testid="synoptic-editor-canvas"
          viewBox={`0 0 ${draft.width} ${draft.height}`}
          className="block h-auto w-full touch-none rounded-xl border bg-card select-none"
          role="group"
          aria-label="Dibujo del sinóptico"
          onPointerDown={() => setSelectedId(null)}
        >
          <SynopticBackdrop synoptic={draft} idPrefix={idPrefix} />
          {draft.items.map((item) => {
            const device = item.deviceId ? (byId.get(item.deviceId) ?? null) : null;
            const view = describeItem(item, device, [] as Alarm[], now);
            const isSelected = item.id === selectedId;
            const title = item.label || device?.name || (item.deviceId ? item.deviceId : SYMBOL_LABELS[item.symbol]);
            return (
              <g
                key={item.id}
                data-editor-item={item.id}
                data-testid={`editor-item-${item.deviceId ?? item.id}`}
                data-x={item.x}
                data-y={item.y}
                data-w={item.w}
                data-h={item.h}
                role="button"
                tabIndex={0}
                aria-label={`${SYMBOL_LABELS[item.symbol]} ${title}: x ${item.x}, y ${item.y}, ${item.w} × ${item.h}`}
                aria-describedby={HINT_ID}
                aria-pressed={isSelected}
                className="group cursor-move outline-none"
                onFocus={() => setSelectedId(item.id)}
                onKeyDown={(e) => onItemKeyDown(e, item)}
                onPointerDown={(e) => onPointerDown(e, item, 'move')}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
              >
                <rect x={item.x} y={item.y} width={item.w} height={item.h} className={cn('fill-transparent', isSelected ? 'stroke-primary' : 'stroke-input')} strokeWidth={isSelected ? 3 : 1.5} strokeDasharray={isSelected ? undefined : '5 4'} />
                <SymbolShape item={item} view={view} />
                <text x={item.x + item.w / 2} y={item.y + 18} textAnchor="middle" className="fill-foreground text-[14px] font-semibold">
                  {item.symbol === 'label' ? item.label || 'Texto' : title}
                </text>
                <rect x={item.x - 4} y={item.y - 4} width={item.w + 8} height={item.h + 8} rx="6" fill="none" className="stroke-transparent group-focus-visible:stroke-ring" strokeWidth="3" />
                {isSelected ? (
                  <rect
                    data-testid="editor-resize-handle"
                    x={item.x + item.w - 12}
                    y={item.y + item.h - 12}
                    width="24"
                    height="24"
                    rx="4"
                    className="cursor-nwse-resize fill-primary stroke-card"
                    strokeWidth="2"
                    onPointerDown={(e) => onPointerDown(e, item, 'resize')}
                    onPointerMove={onPointerMove}
                    onPointerUp={onPointerUp}
                  />
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>

      <div className="grid min-w-0 gap-4">
        <Card className="grid gap-3 p-4" aria-labelledby="palette-title">
          <h2 id="palette-title" className="text-sm font-semibold">
            Paleta
          </h2>
          {unplaced.length > 0 ? (
            <ul className="grid gap-2" aria-label="Dispositivos del sitio sin colocar">
              {unplaced.map((d) => (
                <li key={d.id}>
                  <Button variant="outline" className="h-auto min-h-11 w-full justify-start py-2 text-left whitespace-normal" onClick={() => addItem(symbolOfDevice(d), d)}>
                    <Plus aria-hidden="true" />
                    Colocar {d.name}
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-muted-foreground">{siteDevices.length === 0 ? 'El sitio no tiene dispositivos: asígnelos abajo.' : 'Todos los dispositivos del sitio están colocados.'}</p>
          )}
          <div className="grid grid-cols-2 gap-2">
            <Button variant="outline" onClick={() => addItem('channel', null)}>
              <Plus aria-hidden="true" />
              Canal
            </Button>
            <Button variant="outline" onClick={() => addItem('label', null)}>
              <Plus aria-hidden="true" />
              Etiqueta
            </Button>
          </div>
        </Card>

        {selected ? (
          <ItemProperties
            key={selected.id}
            item={selected}
            devices={siteDevices.length > 0 ? siteDevices : devices}
            allDevices={devices}
            draft={draft}
            onChange={(change) => updateItem(selected.id, (i) => clampItem({ ...i, ...change }, draft.width, draft.height))}
            onRemove={() => removeItem(selected.id)}
          />
        ) : (
          <Card className="p-4 text-sm text-muted-foreground">Elija un elemento del dibujo para cambiar su símbolo, etiqueta, rotación o tamaño.</Card>
        )}

        <Card className="grid gap-3 p-4" aria-labelledby="background-title">
          <h2 id="background-title" className="text-sm font-semibold">
            Fondo y tamaño
          </h2>
          <div className="grid grid-cols-2 gap-2">
            <Button variant={draft.background.kind === 'grid' ? 'secondary' : 'outline'} aria-pressed={draft.background.kind === 'grid'} onClick={() => commit((d) => (d.background.kind === 'grid' ? d : { ...d, background: { kind: 'grid' } }))}>
              <Grid3x3 aria-hidden="true" />
              Cuadrícula
            </Button>
            <label className={cn('inline-flex h-11 cursor-pointer items-center justify-center gap-2 rounded-md border px-3 text-sm font-medium hover:bg-accent focus-within:outline-2 focus-within:outline-ring', draft.background.kind === 'svg' && 'bg-secondary')}>
              <ImageUp aria-hidden="true" className="size-4" />
              Subir SVG
              <input type="file" accept=".svg,image/svg+xml" className="sr-only" data-testid="synoptic-svg-input" onChange={(e) => void onFile(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
            </label>
          </div>
          {fileError ? (
            <p role="alert" className="text-sm font-medium text-crit-fg">
              {fileError}
            </p>
          ) : null}
          <p className="text-xs text-muted-foreground">El servidor limpia el SVG (sin scripts ni enlaces externos) y dice qué quitó al guardar. Máximo 2 MB.</p>
          <div className="grid grid-cols-2 gap-3">
            <SizeInput label="Ancho" value={draft.width} onCommit={(width) => commit((d) => ({ ...d, width, items: d.items.map((i) => clampItem(i, width, d.height)) }))} />
            <SizeInput label="Alto" value={draft.height} onCommit={(height) => commit((d) => ({ ...d, height, items: d.items.map((i) => clampItem(i, d.width, height)) }))} />
          </div>
        </Card>
      </div>
    </div>
  );
}

function SizeInput({ label, value, onCommit }: { label: string; value: number; onCommit: (n: number) => void }) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const n = Number(text);
  const valid = Number.isInteger(n) && n >= SYNOPTIC_LIMITS.sizeMin && n <= SYNOPTIC_LIMITS.sizeMax;
  return (
    <FormField id={id} label={label} error={valid ? null : `De ${SYNOPTIC_LIMITS.sizeMin} a ${SYNOPTIC_LIMITS.sizeMax}`}>
      <Input id={id} inputMode="numeric" value={text} aria-invalid={!valid || undefined} onChange={(e) => setText(e.target.value)} onBlur={() => (valid && n !== value ? onCommit(n) : undefined)} />
    </FormField>
  );
}

function NumberField({ label, value, onCommit }: { label: string; value: number; onCommit: (n: number) => void }) {
  const id = useId();
  return (
    <FormField id={id} label={label}>
      <Input
        id={id}
        type="number"
        step={GRID}
        defaultValue={value}
        key={value}
        onBlur={(e) => {
          const n = Number(e.target.value);
          if (Number.isFinite(n) && n !== value) onCommit(snap(n));
        }}
      />
    </FormField>
  );
}

function ItemProperties({
  item,
  devices,
  allDevices,
  draft,
  onChange,
  onRemove,
}: {
  item: SynopticItem;
  devices: readonly Device[];
  allDevices: readonly Device[];
  draft: Draft;
  onChange: (change: Partial<SynopticItem>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const device = item.deviceId ? (allDevices.find((d) => d.id === item.deviceId) ?? null) : null;
  const symbols = item.deviceId && !device ? [item.symbol] : symbolsFor(device);
  const choosable = devices.filter((d) => item.symbol === 'channel' || symbolsFor(d).includes(item.symbol));
  const [label, setLabel] = useState(item.label);
  return (
    <Card className="grid gap-3 p-4" aria-labelledby={`${id}-title`} data-testid="synoptic-item-properties">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Elemento seleccionado
      </h2>
      <FormField id={`${id}-symbol`} label="Símbolo">
        <NativeSelect
          id={`${id}-symbol`}
          value={item.symbol}
          onChange={(e) => {
            const symbol = e.target.value as SynopticSymbol;
            onChange({ symbol, ...(symbol === 'label' ? { deviceId: null } : {}), ...DEFAULT_SIZES[symbol] });
          }}
        >
          {[...new Set([...symbols, ...(device ? [] : (['channel', 'label'] as SynopticSymbol[]))])].map((s) => (
            <option key={s} value={s}>
              {SYMBOL_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {item.symbol !== 'label' ? (
        <FormField id={`${id}-device`} label="Dispositivo">
          <NativeSelect id={`${id}-device`} value={item.deviceId ?? ''} onChange={(e) => onChange({ deviceId: e.target.value || null })}>
            {item.symbol === 'channel' ? <option value="">Ninguno</option> : null}
            {item.deviceId && !device ? <option value={item.deviceId}>Dispositivo eliminado ({item.deviceId})</option> : null}
            {choosable.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      ) : null}
      <FormField id={`${id}-label`} label="Etiqueta" hint={item.symbol === 'label' ? undefined : 'Vacía: el nombre del dispositivo.'}>
        <Input id={`${id}-label`} value={label} maxLength={SYNOPTIC_LIMITS.labelMax} onChange={(e) => setLabel(e.target.value)} onBlur={() => (label !== item.label ? onChange({ label }) : undefined)} />
      </FormField>
      <FormField id={`${id}-rotation`} label="Rotación">
        <NativeSelect id={`${id}-rotation`} value={item.rotation} onChange={(e) => onChange({ rotation: Number(e.target.value) as SynopticRotation })}>
          {SYNOPTIC_ROTATIONS.map((r) => (
            <option key={r} value={r}>
              {r}°
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <div className="grid grid-cols-2 gap-3">
        <NumberField label="X" value={item.x} onCommit={(x) => onChange({ x })} />
        <NumberField label="Y" value={item.y} onCommit={(y) => onChange({ y })} />
        <NumberField label="Ancho" value={item.w} onCommit={(w) => onChange({ w })} />
        <NumberField label="Alto" value={item.h} onCommit={(h) => onChange({ h })} />
      </div>
      <p className="text-xs text-muted-foreground">
        Dibujo de {draft.width} × {draft.height} unidades.
      </p>
      <Button variant="outline" onClick={onRemove} className="text-crit-fg">
        <Trash2 aria-hidden="true" />
        Quitar del dibujo
      </Button>
    </Card>
  );
}
