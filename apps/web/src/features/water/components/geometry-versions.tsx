import type { GeometryVersion } from '@agua/shared';
import { formatDateTime } from '@/lib/format';

/** Who saved a version: the demo tanks' first version has no author. */
const byName = (v: GeometryVersion) => v.by?.name ?? 'Demostración';

/** Every version of the geometry, newest first, as the server lists them. */
export function GeometryVersions({ versions }: { versions: GeometryVersion[] }) {
  if (versions.length === 0) return <p className="text-sm text-muted-foreground">Sin versiones: el sensor nunca se configuró.</p>;
  return (
    <ol data-testid="geometry-versions" className="grid gap-1 text-sm">
      {versions.map((v) => (
        <li key={v.version} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 rounded-md px-2 py-1.5 odd:bg-muted/50">
          <span className="font-semibold tabular-nums">Versión {v.version}</span>
          <span className="text-muted-foreground tabular-nums">{formatDateTime(v.validFrom)}</span>
          <span>{byName(v)}</span>
        </li>
      ))}
    </ol>
  );
}
