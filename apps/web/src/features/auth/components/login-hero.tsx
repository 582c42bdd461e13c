import { Activity, ShieldCheck, Users, Waves } from 'lucide-react';
import { PRODUCT_NAME } from '@agua/shared';

const FEATURES = [
  { icon: ShieldCheck, title: 'Seguro', text: 'Sesiones protegidas, permisos por rol y registro de auditoría de cada acción.' },
  { icon: Activity, title: 'Tiempo real', text: 'Niveles y compuertas de sus dispositivos ESP32, actualizados al instante.' },
  { icon: Users, title: 'Multiusuario', text: 'Administradores, operadores y observadores trabajando a la vez.' },
] as const;

/** The promotional panel of the login page (wide screens). */
export function LoginHero() {
  return (
    <aside aria-label="Presentación del sistema" className="relative hidden overflow-hidden bg-[oklch(0.24_0.05_245)] text-white lg:flex lg:flex-col lg:justify-between lg:p-12">
      <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 bottom-0 h-1/2 opacity-25">
        <svg viewBox="0 0 600 200" preserveAspectRatio="none" className="size-full">
          <path d="M0 80 C 100 40, 200 120, 300 80 S 500 40, 600 80 V200 H0 Z" fill="oklch(0.6 0.12 240)" />
          <path d="M0 120 C 120 90, 220 150, 330 115 S 520 90, 600 120 V200 H0 Z" fill="oklch(0.5 0.12 240)" />
        </svg>
      </div>
      <div className="relative flex items-center gap-3">
        <span className="inline-flex size-10 items-center justify-center rounded-lg bg-white/15">
          <Waves className="size-6" aria-hidden="true" />
        </span>
        <span className="text-lg font-semibold">{PRODUCT_NAME}</span>
      </div>
      <div className="relative max-w-lg">
        <p className="text-sm font-medium tracking-wide text-white/70 uppercase">Sistema de monitoreo IoT</p>
        <p className="mt-3 text-4xl leading-tight font-semibold text-balance">
          Monitoreo seguro y en tiempo real de su infraestructura de agua.
        </p>
        <ul className="mt-10 grid gap-6">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/15">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <span>
                <span className="block font-semibold">{title}</span>
                <span className="block text-sm text-white/75">{text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p className="relative text-xs text-white/60">Sensores de nivel · Compuertas motorizadas · Exportación a Excel</p>
    </aside>
  );
}
