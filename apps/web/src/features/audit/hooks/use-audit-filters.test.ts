import { describe, expect, it } from 'vitest';
import { toAuditQuery } from './use-audit-filters';

const empty = { userId: '', deviceId: '', action: '', from: '', to: '' };

describe('toAuditQuery', () => {
  it('sends only what is set, and only known actions', () => {
    expect(toAuditQuery(empty)).toEqual({ query: {} });
    expect(toAuditQuery({ ...empty, userId: 'u1', action: 'command.issued' })).toEqual({ query: { userId: 'u1', action: 'command.issued' } });
    expect(toAuditQuery({ ...empty, action: 'drop.table' })).toEqual({ query: {} });
  });

  it("makes 'Hasta' inclusive: to = the next day's local midnight", () => {
    const r = toAuditQuery({ ...empty, from: '2026-11-20', to: '2026-11-20' });
    expect(r).toEqual({ query: { from: new Date(2026, 10, 20).toISOString(), to: new Date(2026, 10, 21).toISOString() } });
  });

  it('refuses a from after to', () => {
    expect(toAuditQuery({ ...empty, from: '2026-11-21', to: '2026-11-20' })).toHaveProperty('error');
  });
});
