import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { useSites } from '../api/sites-api';

/**
 * 'Sitio' above a list of devices: all of them, or one site's (`?siteId=` in the address, so that
 * a link or a reload keeps it). Nothing while there are no sites.
 */
export function SiteFilter() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const sites = useSites();
  const value = params.get('siteId') ?? '';
  if (!sites.data || sites.data.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Label htmlFor={id}>Sitio</Label>
      <div className="w-full max-w-xs">
        <NativeSelect
          id={id}
          value={value}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            if (e.target.value) next.set('siteId', e.target.value);
            else next.delete('siteId');
            setParams(next, { replace: true });
          }}
        >
          <option value="">Todos los sitios</option>
          {sites.data.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
