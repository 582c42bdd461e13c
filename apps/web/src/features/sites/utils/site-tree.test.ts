import { describe, expect, it } from 'vitest';
import type { Site } from '@agua/shared';
import { childSites, siteTree, type SiteNode } from './site-tree';

const site = (id: string, parentId: string | null = null): Site => ({ id, name: id, parentId, lat: null, lon: null, address: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });
const shape = (nodes: SiteNode[]): unknown[] => nodes.map((n) => (n.children.length ? [n.site.id, shape(n.children)] : n.site.id));

describe('the sites as a tree', () => {
  it('puts each child under its parent, keeping the order given', () => {
    const sites = [site('a'), site('a1', 'a'), site('b'), site('a2', 'a'), site('a1x', 'a1')];
    expect(shape(siteTree(sites))).toEqual([['a', [['a1', ['a1x']], 'a2']], 'b']);
    expect(childSites(sites, 'a').map((s) => s.id)).toEqual(['a1', 'a2']);
  });

  it('shows a site whose parent is not in the list at the top', () => {
    expect(shape(siteTree([site('hijo', 'fuera'), site('otro')]))).toEqual(['hijo', 'otro']);
  });

  it('cuts a loop instead of following it', () => {
    expect(shape(siteTree([site('x', 'y'), site('y', 'x')]))).toEqual([['x', ['y']]]);
  });
});
