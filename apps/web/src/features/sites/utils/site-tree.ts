import type { Site } from '@agua/shared';

export interface SiteNode {
  site: Site;
  children: SiteNode[];
}

/**
 * Sites as a tree, for a list that shows each site's children indented under it: the roots are the
 * sites whose parent is not among `sites` (none, or one shown elsewhere), in the order given (by
 * name); each child keeps that order too. The server keeps the sites a tree; a loop in what the
 * browser holds (frames half applied) is cut rather than followed.
 */
export function siteTree(sites: readonly Site[]): SiteNode[] {
  const ids = new Set(sites.map((s) => s.id));
  const childrenOf = new Map<string, Site[]>();
  for (const s of sites) {
    if (s.parentId === null || !ids.has(s.parentId)) continue;
    childrenOf.set(s.parentId, [...(childrenOf.get(s.parentId) ?? []), s]);
  }
  const seen = new Set<string>();
  const node = (site: Site): SiteNode => {
    seen.add(site.id);
    return { site, children: (childrenOf.get(site.id) ?? []).filter((c) => !seen.has(c.id)).map(node) };
  };
  const roots = sites.filter((s) => s.parentId === null || !ids.has(s.parentId)).map(node);
  // A loop has no root: its sites are shown at the top rather than lost.
  for (const s of sites) if (!seen.has(s.id)) roots.push(node(s));
  return roots;
}

/** The sites directly inside `siteId`, in the order given. */
export function childSites(sites: readonly Site[], siteId: string): Site[] {
  return sites.filter((s) => s.parentId === siteId);
}
