import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

export interface AuditDeps {
  db: Kysely<Database>;
  collapseWindowMs: number;
  log: FastifyBaseLogger;
}

export interface AuditModule {
  repo: AuditRepository;
  service: AuditService;
}

export function createAudit({ db, collapseWindowMs, log }: AuditDeps): AuditModule {
  const repo = new AuditRepository(db);
  return { repo, service: new AuditService(repo, log, { collapseWindowMs }) };
}
