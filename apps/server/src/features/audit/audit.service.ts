import type { FastifyBaseLogger } from 'fastify';
import type { AuditEntry, AuditRepository } from './audit.repository';

/** Records who did what; a failure to record is logged loudly but never hides the action's own result. */
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    try {
      await this.repo.append(entry, Date.now());
    } catch (err) {
      this.log.error({ err, action: entry.action }, 'audit event could not be stored');
    }
  }
}
