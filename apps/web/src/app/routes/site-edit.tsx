import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, RefreshCw, ShieldAlert } from 'lucide-react';
import { can, type Synoptic, type SynopticSaved } from '@agua/shared';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Button, buttonVariants } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { useSaveSynoptic, useSites, useSynoptic } from '@/features/sites/api/sites-api';
import { SiteDevicesCard } from '@/features/sites/components/site-devices-card';
import { SynopticEditor } from '@/features/sites/components/synoptic-editor';
import { draftProblems, type Draft } from '@/features/sites/utils/synoptic-edit';
import { isApiError } from '@/lib/api-client';
import { AccessDenied } from './access-denied';

export default function SiteEditRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const sites = useSites();
  const synoptic = useSynoptic(id);
  const save = useSaveSynoptic(id);
  const { devices } = useDevices();
  const [error, setError] = useState<string | null>(null);
  const [sanitized, setSanitized] = useState<string[]>([]);
  // The version being edited. A newer one (another person's save, told by the live socket) does not
  // replace it under the editor's hands: a notice offers it, and a save on the old one is a 409.
  const [base, setBase] = useState<Synoptic | null>(null);
  const newest = synoptic.data;
  if (base === null && newest) setBase(newest);
  if (!can(user, 'manage_devices')) return <AccessDenied />;
  const site = sites.data?.find((s) => s.id === id) ?? null;
  const data = base;
  const newer = newest && base && newest.version > base.version ? newest : null;

  async function loadNewest() {
    const fresh = await synoptic.refetch();
    if (fresh.data) setBase(fresh.data);
  }
  const siteDevices = devices.filter((d) => d.siteId === id);

  function onSave(draft: Draft) {
    if (!data) return;
    setError(null);
    setSanitized([]);
    const problems = draftProblems(draft, devices);
    if (problems.length > 0) {
      setError(problems.join(' '));
      return;
    }
    save.mutate(
      { baseVersion: data.version, width: draft.width, height: draft.height, background: draft.background, items: draft.items },
      {
        onSuccess: (saved: SynopticSaved) => {
          const { sanitized: removed, ...stored } = saved;
          setBase(stored);
          setSanitized(removed);
          toast({ title: 'Sinóptico guardado', description: `Versión ${saved.version}`, variant: 'success' });
        },
        onError: (e) => {
          if (isApiError(e) && e.code === 'VERSION_CONFLICT') {
            setError('Otra persona guardó una versión más reciente mientras usted editaba. Se ha cargado esa versión: repita sus cambios sobre ella.');
            void loadNewest();
          } else if (isApiError(e) && e.status === 413) {
            setError(e.code === 'SVG_TOO_LARGE' ? e.message : 'El dibujo es demasiado grande para guardarlo (el fondo SVG admite hasta 2 MB).');
          } else if (isApiError(e) && e.details && typeof e.details === 'object' && 'reason' in e.details) {
            const d = e.details as { field?: string; reason?: string };
            setError(`${e.message} ${d.field ? `(${d.field})` : ''} ${d.reason ?? ''}`.trim());
          } else {
            setError(e.message);
          }
        },
      },
    );
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title={`Editar sinóptico${site ? ` · ${site.name}` : ''}`}
        description={data ? (data.version === 0 ? 'Aún sin guardar: un dibujo nuevo.' : `Sobre la versión ${data.version}.`) : undefined}
        actions={
          <Link to={`/sites/${encodeURIComponent(id)}`} className={buttonVariants({ variant: 'outline' })}>
            <ArrowLeft aria-hidden="true" />
            Ver sitio
          </Link>
        }
      />
      <FormAlert message={error} />
      {newer ? (
        <div role="status" data-testid="synoptic-newer" className="flex flex-col gap-3 rounded-lg border border-warn/50 bg-warn/10 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>
            <span className="font-semibold">{newer.createdBy?.name ?? 'Otra persona'} guardó la versión {newer.version} mientras usted edita.</span> Guardar ahora no sería posible:
            cargue esa versión (sus cambios sin guardar se pierden) o anote sus cambios antes.
          </p>
          <Button variant="outline" onClick={() => void loadNewest().then(() => setError(null))}>
            <RefreshCw aria-hidden="true" />
            Cargar la versión {newer.version}
          </Button>
        </div>
      ) : null}
      {sanitized.length > 0 ? (
        <div role="status" data-testid="synoptic-sanitized" className="flex items-start gap-3 rounded-lg border border-warn/50 bg-warn/10 px-4 py-3 text-sm">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
          <p>
            <span className="font-semibold">El servidor quitó del fondo SVG lo que podía ejecutarse o cargar otros archivos:</span> {sanitized.join(', ')}.
          </p>
        </div>
      ) : null}
      {synoptic.error && !data ? <LoadError message={synoptic.error.message} onRetry={() => void synoptic.refetch()} /> : null}
      {synoptic.isPending ? <Skeleton className="aspect-[3/2] w-full rounded-xl" /> : null}
      {data ? (
        <SynopticEditor
          // A new version (saved here, or by someone else) starts the editor again from it.
          key={data.version}
          initial={{ width: data.width, height: data.height, background: data.background, items: data.items }}
          devices={devices}
          siteDevices={siteDevices}
          saving={save.isPending}
          onSave={onSave}
        />
      ) : null}
      {site ? (
        <div className="max-w-md">
          <SiteDevicesCard site={site} devices={devices} sites={sites.data ?? []} />
        </div>
      ) : null}
    </div>
  );
}
