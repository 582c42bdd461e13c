import { useMemo } from 'react';
import { ApprovalPanel } from '@/features/approvals/components/approval-panel';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { BypassBanner } from '@/features/interlocks/components/bypass-banner';

/** The device names the banners print (the layout composes the features; they do not import each other's lists). */
export function useDeviceNames(): (id: string) => string {
  const { devices } = useDevices();
  return useMemo(() => {
    const names = new Map(devices.map((d) => [d.id, d.name]));
    return (id: string) => names.get(id) ?? id;
  }, [devices]);
}

/**
 * What the control of the plant asks of whoever is signed in, on top of every screen: a bypassed
 * interlock (everyone), and two-person commands waiting for approval (users with write).
 */
export function ControlBanners({ enabled }: { enabled: boolean }) {
  const deviceName = useDeviceNames();
  return (
    <>
      <BypassBanner deviceName={deviceName} enabled={enabled} />
      <ApprovalPanel deviceName={deviceName} enabled={enabled} />
    </>
  );
}
