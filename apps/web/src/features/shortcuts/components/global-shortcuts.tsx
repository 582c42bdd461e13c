import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useShortcut } from '../hooks/use-shortcut';
import { SHORTCUTS } from '../shortcuts';

/** 'a' Alarmas, 'd' Dashboard, 's' Sala de control, '?' this help: on every signed-in screen. */
export function GlobalShortcuts() {
  const navigate = useNavigate();
  const [help, setHelp] = useState(false);
  useShortcut('a', () => navigate('/alarms'));
  useShortcut('d', () => navigate('/'));
  useShortcut('s', () => navigate('/wall'));
  useShortcut('?', () => setHelp(true));
  return (
    <Dialog open={help} onOpenChange={setHelp}>
      <DialogContent data-testid="shortcuts-help">
        <DialogHeader>
          <DialogTitle>Atajos de teclado</DialogTitle>
          <DialogDescription>Funcionan en cualquier pantalla, salvo mientras se escribe en un campo.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.key} className="contents">
              <dt>
                <kbd className="inline-flex min-w-8 justify-center rounded-md border bg-muted px-2 py-1 font-mono text-xs font-semibold">{s.keyLabel}</kbd>
              </dt>
              <dd>{s.description}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
