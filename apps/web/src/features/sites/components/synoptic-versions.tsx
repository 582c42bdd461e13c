import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Eye, History, RotateCcw } from 'lucide-react';
import type { Synoptic, SynopticVersion } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { fetchSynopticVersion, useSaveSynoptic, useSynoptic, useSynopticVersions } from '../api/sites-api';

/** How many versions show before 'Mostrar todas'. */
const SHOWN = 8;

/** Who saved a version: a person's name, or 'Sistema' (the demo's drawings, createdBy null). */
export const savedBy = (v: Pick<SynopticVersion, 'createdBy'>) => v.createdBy?.name ?? 'Sistema';

/** The link that shows one version of the site's drawing (`?version=n`); the newest is the page itself. */
export const versionHref = (siteId: string, version: number | null) => `/sites/${encodeURIComponent(siteId)}${version === null ? '' : `?version=${version}`}`;

/**
 * Restores an older version: saved as a new version on top of the newest (PUT with baseVersion =
 * the newest read). Someone else's save in between is the server's 409, which says so and loads
 * theirs; a device since purged is its 422, shown as it comes.
 */
export function useRestoreSynoptic(siteId: string) {
  const save = useSaveSynoptic(siteId);
  const current = useSynoptic(siteId);
  const versions = useSynopticVersions(siteId);
  const [error, setError] = useState<string | null>(null);

  async function restore(version: number): Promise<Synoptic | null> {
    setError(null);
    const base = current.data;
    if (!base) return null;
    try {
      const old = await fetchSynopticVersion(siteId, version);
      const saved = await save.mutateAsync({ baseVersion: base.version, width: old.width, height: old.height, background: old.background, items: old.items });
      toast({ title: `Versión ${version} restaurada`, description: `Guardada como versión ${saved.version}.`, variant: 'success' });
      return saved;
    } catch (e) {
      if (isApiError(e) && e.code === 'VERSION_CONFLICT') {
        setError('Otra persona guardó una versión más reciente mientras tanto. Se ha cargado esa versión: restaure de nuevo si sigue haciendo falta.');
        void current.refetch();
        void versions.refetch();
      } else if (isApiError(e) && e.details && typeof e.details === 'object' && 'reason' in e.details) {
        const d = e.details as { field?: string; reason?: string };
        setError(`${e.message} ${d.reason ?? ''}`.trim());
      } else {
        setError(e instanceof Error ? e.message : String(e));
      }
      return null;
    }
  }
  return { restore, pending: save.isPending, error, clearError: () => setError(null) };
}

/** 'Restaurar' and its confirmation, for one version. */
export function RestoreVersionButton({ siteId, version, onRestored, size = 'sm' }: { siteId: string; version: number; onRestored?: () => void; size?: 'sm' | 'default' }) {
  const { restore, pending, error } = useRestoreSynoptic(siteId);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="outline" size={size} disabled={pending} onClick={() => setAsking(true)} aria-label={`Restaurar la versión ${version}`}>
        {pending ? <Spinner /> : <RotateCcw aria-hidden="true" />}
        Restaurar
      </Button>
      {error ? (
        <div className="basis-full">
          <FormAlert message={error} />
        </div>
      ) : null}
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`¿Restaurar la versión ${version}?`}
        description="Se guarda como una versión nueva, encima de la actual; ninguna versión se borra, así que la actual puede restaurarse después."
        confirmLabel="Restaurar"
        onConfirm={() =>
          void restore(version).then((saved) => {
            if (saved) onRestored?.();
          })
        }
      />
    </>
  );
}

/**
 * 'Versiones': every saved version of the drawing, newest first — number, date and who saved it —
 * each one viewable read-only and, for manage_devices, restorable as a new version.
 */
export function SynopticVersionsCard({ siteId, manage, viewing }: { siteId: string; manage: boolean; viewing: number | null }) {
  const id = useId();
  const versions = useSynopticVersions(siteId);
  const [all, setAll] = useState(false);
  const list = versions.data ?? [];
  const newest = list[0]?.version ?? null;
  const shown = all ? list : list.slice(0, SHOWN);

  return (
    <Card className="grid gap-3 p-4" aria-labelledby={`${id}-title`} data-testid="synoptic-versions">
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-sm font-semibold">
        <History aria-hidden="true" className="size-4" />
        Versiones
      </h2>
      {versions.isPending ? <Spinner /> : null}
      {versions.error ? <FormAlert message={versions.error.message} /> : null}
      {versions.data && list.length === 0 ? <p className="text-xs text-muted-foreground">Aún no se ha guardado ninguna versión.</p> : null}
      {list.length > 0 ? (
        <ul className="grid divide-y">
          {shown.map((v) => {
            const current = v.version === newest;
            const here = viewing === null ? current : viewing === v.version;
            return (
              <li key={v.version} data-testid={`synoptic-version-${v.version}`} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2 text-sm">
                <span className="grid min-w-0 flex-1 gap-0.5">
                  <span className="flex flex-wrap items-center gap-2 font-medium">
                    Versión {v.version}
                    {current ? <Badge tone="primary">Actual</Badge> : null}
                    {here && !current ? <Badge tone="warn">Mostrada</Badge> : null}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    <span className="tabular-nums">{formatDateTime(v.createdAt)}</span> · {savedBy(v)}
                  </span>
                </span>
                {here ? null : (
                  <Link to={versionHref(siteId, current ? null : v.version)} className={buttonVariants({ variant: 'ghost', size: 'sm' })} aria-label={`Ver la versión ${v.version}`}>
                    <Eye aria-hidden="true" />
                    Ver
                  </Link>
                )}
                {manage && !current ? <RestoreVersionButton siteId={siteId} version={v.version} /> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {list.length > SHOWN ? (
        <Button variant="ghost" size="sm" className="justify-self-start" onClick={() => setAll((a) => !a)}>
          {all ? 'Mostrar menos' : `Mostrar todas (${list.length})`}
        </Button>
      ) : null}
    </Card>
  );
}
