import { Eye, ShieldCheck, UserCheck, Users, Wrench, type LucideIcon } from 'lucide-react';
import type { User } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { formatInteger } from '@/lib/format';

function Tile({ label, value, icon: Icon }: { label: string; value: number; icon: LucideIcon }) {
  return (
    <Card className="p-4">
      <div className="flex items-start justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      </div>
      <p className="mt-1 text-2xl font-semibold tabular-nums">{formatInteger(value)}</p>
    </Card>
  );
}

export function UsersTiles({ users }: { users: User[] }) {
  const count = (predicate: (u: User) => boolean) => users.filter(predicate).length;
  return (
    <section aria-label="Resumen de usuarios" className="grid grid-cols-2 gap-3 @3xl:grid-cols-5">
      <Tile label="Total Usuarios" value={users.length} icon={Users} />
      <Tile label="Administradores" value={count((u) => u.role === 'admin')} icon={ShieldCheck} />
      <Tile label="Operadores" value={count((u) => u.role === 'operator')} icon={Wrench} />
      <Tile label="Observadores" value={count((u) => u.role === 'viewer')} icon={Eye} />
      <Tile label="Usuarios Activos" value={count((u) => u.status === 'active')} icon={UserCheck} />
    </section>
  );
}
