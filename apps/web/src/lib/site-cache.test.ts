import { describe, expect, it } from 'vitest';
import type { Site } from '@agua/shared';
import { applySiteFrames } from './site-cache';

const site = (id: string, name: string): Site => ({ id, name, parentId: null, lat: null, lon: null, address: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

describe('applySiteFrames', () => {
  it('puts a site in by name, replaces one, and takes one out', () => {
    const list = [site('a', 'Alfa'), site('c', 'Charlie')];
    const next = applySiteFrames(list, [
      { type: 'site.updated', data: site('b', 'Bravo') },
      { type: 'site.updated', data: site('a', 'Zulú') },
      { type: 'site.removed', data: { id: 'c' } },
      { type: 'synoptic.updated', data: { siteId: 'a', version: 2 } },
    ]);
    expect(next.map((s) => s.name)).toEqual(['Bravo', 'Zulú']);
  });
});
