import { PageHeader } from '@/components/page-header';
import { ManualContent } from '@/features/manual/components/manual-content';

export default function ManualRoute() {
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="Manual de Administrador" description="Gestión de usuarios, roles, comandos protegidos y conexión de dispositivos ESP32." />
      <ManualContent />
    </div>
  );
}
