import { ROLES, type Role, type Settings } from '@agua/shared';
import { unprocessable } from '../../lib/errors';
import type { SettingsRepository } from '../../storage/settings.repository';
import type { AuditService } from '../audit/audit.service';

const TOTP_REQUIRED_ROLES = 'settings.totpRequiredRoles';

/**
 * Server-wide settings an administrator changes at run time (docs/security.md). Read from the
 * database every time, so that a change made on one instance counts on every other at once; the
 * last value read is kept for the places that cannot wait for a query (a live socket's hello).
 */
export class SettingsService {
  private lastRoles: readonly Role[] = [];

  constructor(
    private readonly repo: SettingsRepository,
    private readonly audit: AuditService,
  ) {}

  async get(): Promise<Settings> {
    return { totpRequiredRoles: [...(await this.totpRequiredRoles())] };
  }

  /** The roles whose users must sign in with TOTP. */
  async totpRequiredRoles(): Promise<readonly Role[]> {
    const stored = await this.repo.find(TOTP_REQUIRED_ROLES);
    this.lastRoles = parseRoles(stored);
    return this.lastRoles;
  }

  /** The roles as last read (or written) here. */
  cachedTotpRequiredRoles(): readonly Role[] {
    return this.lastRoles;
  }

  async patch(patch: Partial<Settings>, actor: { user: { id: string; username: string }; ip: string }): Promise<Settings> {
    const before = await this.get();
    if (patch.totpRequiredRoles !== undefined) {
      const roles = patch.totpRequiredRoles;
      if (new Set(roles).size !== roles.length) throw unprocessable('SETTINGS_INVALID', { field: 'totpRequiredRoles', reason: 'duplicate role' });
      const ordered = ROLES.filter((r) => roles.includes(r));
      await this.repo.put(TOTP_REQUIRED_ROLES, JSON.stringify(ordered));
      this.lastRoles = ordered;
    }
    const after = await this.get();
    await this.audit.record({
      action: 'settings.updated',
      userId: actor.user.id,
      username: actor.user.username,
      target: 'settings',
      result: 'ok',
      ip: actor.ip,
      details: { before, after },
    });
    return after;
  }
}

function parseRoles(stored: string | null): Role[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? ROLES.filter((r) => value.includes(r)) : [];
  } catch {
    return [];
  }
}
