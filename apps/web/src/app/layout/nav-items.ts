import { BellRing, BookOpen, Cpu, Droplets, FileSpreadsheet, LayoutDashboard, Map as MapIcon, Megaphone, ScrollText, ShieldCheck, Users, type LucideIcon } from 'lucide-react';
import type { Permission } from '@agua/shared';

export interface NavItem {
  to: string;
  label: string;
  permission: Permission;
  icon: LucideIcon;
}

/**
 * Menu items, each shown only with its permission (seed); 'Mapa' (every role: the sites and
 * their synoptics) after 'Dispositivos'; 'Desbordamientos' (every role: read)
 * after 'Alarmas', then 'Informes' (every role: read); 'Enclavamientos' (administrators: the
 * interlocks in front of device commands) before 'Usuarios'; 'Auditoría' sits after 'Usuarios',
 * and 'Notificaciones' (webhooks, escalation, delivery log) after it.
 */
export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'Dashboard', permission: 'read', icon: LayoutDashboard },
  { to: '/devices', label: 'Dispositivos', permission: 'read', icon: Cpu },
  { to: '/map', label: 'Mapa', permission: 'read', icon: MapIcon },
  { to: '/alarms', label: 'Alarmas', permission: 'read', icon: BellRing },
  { to: '/overflows', label: 'Desbordamientos', permission: 'read', icon: Droplets },
  { to: '/reports', label: 'Informes', permission: 'read', icon: FileSpreadsheet },
  { to: '/interlocks', label: 'Enclavamientos', permission: 'manage_devices', icon: ShieldCheck },
  { to: '/users', label: 'Usuarios', permission: 'manage_users', icon: Users },
  { to: '/audit', label: 'Auditoría', permission: 'manage_users', icon: ScrollText },
  { to: '/notifications', label: 'Notificaciones', permission: 'manage_users', icon: Megaphone },
  { to: '/manual', label: 'Manual Admin', permission: 'manage_users', icon: BookOpen },
];
