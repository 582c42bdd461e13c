import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD } from '@agua/shared';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { useToast } from './use-toast';

const ICONS = { default: Info, success: CircleCheck, destructive: CircleAlert } as const;

/** Renders the toast store; the seed's constants: 5000 ms, one at a time, swipe 50, F8. */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <ToastProvider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD} label="Notificación">
      {toasts.map(({ id, title, description, variant = 'default', open }) => {
        const Icon = ICONS[variant];
        return (
          <Toast
            key={id}
            variant={variant}
            open={open}
            // Errors interrupt the screen reader; confirmations wait their turn.
            type={variant === 'destructive' ? 'foreground' : 'background'}
            onOpenChange={(next) => {
              if (!next) dismiss(id);
            }}
          >
            <Icon
              aria-hidden="true"
              className={variant === 'success' ? 'mt-0.5 size-5 shrink-0 text-ok' : variant === 'destructive' ? 'mt-0.5 size-5 shrink-0' : 'mt-0.5 size-5 shrink-0 text-primary'}
            />
            <div className="grid min-w-0 gap-1">
              <ToastTitle>{title}</ToastTitle>
              {description ? <ToastDescription>{description}</ToastDescription> : null}
            </div>
            <ToastClose />
          </Toast>
        );
      })}
      <ToastViewport hotkey={[TOAST_HOTKEY]} label="Notificaciones ({hotkey})" />
    </ToastProvider>
  );
}
