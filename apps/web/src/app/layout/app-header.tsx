import { useState } from 'react';
import { Menu } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { AlarmBanner } from '@/features/alarms/components/alarm-banner';
import { AlarmSoundToggle } from '@/features/alarms/components/alarm-sound-toggle';
import { LiveStatusIndicator } from '@/features/live/components/live-status-indicator';
import { Sidebar } from './sidebar';
import { ThemeToggle } from './theme-toggle';

/** Sticky header: menu toggle on narrow screens, the alarm banner, the live 'Sistema Activo' light, the alarm sound, theme switch. */
export function AppHeader({ showLive }: { showLive: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b bg-background/85 px-2 backdrop-blur supports-[backdrop-filter]:bg-background/70 sm:px-6">
      <Sheet open={open} onOpenChange={setOpen}>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Abrir menú" aria-expanded={open} onClick={() => setOpen(true)}>
          <Menu aria-hidden="true" className="size-5" />
        </Button>
        <SheetContent>
          <SheetTitle className="sr-only">Menú</SheetTitle>
          <SheetDescription className="sr-only">Navegación del panel</SheetDescription>
          <Sidebar onNavigate={() => setOpen(false)} />
        </SheetContent>
      </Sheet>
      {/* On a phone (390 px) the banner, the live light and three 44 px buttons just fit: icon buttons need no gap. */}
      <div className="ml-auto flex items-center gap-0.5 sm:gap-2">
        {showLive ? <AlarmBanner /> : null}
        {showLive ? <LiveStatusIndicator /> : null}
        {showLive ? <AlarmSoundToggle /> : null}
        <ThemeToggle />
      </div>
    </header>
  );
}
