import { JSDOM } from 'jsdom';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { unprocessable } from '../../lib/errors';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** What the sanitiser kept, and the names of what it removed (elements and attributes, each once). */
export interface SanitizedSvg {
  svg: string;
  removed: string[];
}

const invalid = (reason: string) => unprocessable('SYNOPTIC_INVALID', { field: 'background.svg', reason });

/** CSS text with its escapes decoded (`\75 rl(` is `url(` to a browser), folded to lower case. */
function cssPlain(text: string): string {
  return text
    .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_m, hex: string) => String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd))
    .replace(/\\(.)/gs, '$1')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .toLowerCase();
}

/**
 * Whether CSS (a `<style>`, a style attribute, a presentation attribute such as fill) reaches
 * outside the drawing: `@import`, `image-set()` or `src()` at all, or a `url()` to anything but a
 * `#fragment` of the drawing itself.
 */
export function cssReachesOut(text: string): boolean {
  const css = cssPlain(text);
  if (/@import|image-set\(|(^|[^a-z-])src\(/.test(css)) return true;
  for (const m of css.matchAll(/url\(\s*(['"]?)([^'")]*)/g)) {
    if (!m[2]!.trim().startsWith('#')) return true;
  }
  return false;
}

/**
 * One DOMPurify over one jsdom window for the process, with the rules DOMPurify's SVG profile
 * leaves to us (docs/sites.md "SVG backgrounds"): links only to fragments of the drawing, CSS
 * never reaching out. `found` collects what the hooks removed during the current (synchronous)
 * call.
 */
let purifier: { purify: DOMPurify; window: JSDOM['window']; found: string[] } | null = null;

function instance() {
  if (purifier) return purifier;
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  const state = { purify, window, found: [] as string[] };
  purify.addHook('uponSanitizeElement', (node, data) => {
    // A <style> that imports or fetches anything goes whole: its rules cannot be half kept.
    if (data.tagName === 'style' && cssReachesOut(node.textContent ?? '')) {
      state.found.push('style');
      node.parentNode?.removeChild(node);
    }
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const local = data.attrName.split(':').pop();
    const value = data.attrValue.trim();
    // href and xlink:href (and any prefix bound to XLink): only '#id' of this drawing; xml:base would move even those elsewhere.
    const css = local === 'style' || /url|\\/i.test(value);
    const outside = (local === 'href' && !value.startsWith('#')) || local === 'base' || (css && cssReachesOut(value));
    if (outside) data.keepAttr = false;
  });
  purifier = state;
  return state;
}

/** CDATA is text to a drawing; DOMPurify drops CDATA sections whole, so they become text first. */
function cdataToText(root: Element): void {
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, 0x8 /* NodeFilter.SHOW_CDATA_SECTION */);
  const sections: Node[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) sections.push(n);
  for (const s of sections) s.parentNode?.replaceChild(doc.createTextNode(s.nodeValue ?? ''), s);
}

/**
 * An SVG background made safe to show (docs/sites.md): parsed as the XML it is (not well-formed,
 * or a root other than an SVG `<svg>`: 422 SYNOPTIC_INVALID), cleaned in place by DOMPurify's SVG
 * profile plus the rules above, and written back as XML. `removed` names what went (elements and
 * attributes by their names, comments and processing instructions left unsaid or by target),
 * for the editor to tell the engineer.
 */
export function sanitizeSvg(source: string): SanitizedSvg {
  const state = instance();
  const doc = new state.window.DOMParser().parseFromString(source, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || doc.getElementsByTagName('parsererror').length > 0) throw invalid('El SVG no es XML bien formado.');
  if (root.localName !== 'svg') throw invalid('El elemento raíz debe ser <svg>.');
  if (root.namespaceURI !== SVG_NS) throw invalid(`Falta xmlns="${SVG_NS}" en <svg>.`);
  // Processing instructions outside the root (an xml-stylesheet, say) are not written back.
  const removed = [...doc.childNodes].filter((n) => n.nodeType === 7).map((n) => (n as ProcessingInstruction).target);
  cdataToText(root);
  state.found = [];
  state.purify.sanitize(root, { IN_PLACE: true, USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'] });
  for (const r of state.purify.removed as { element?: Node; attribute?: Attr | null }[]) {
    if (r.attribute) removed.push(r.attribute.name);
    else if (r.element && r.element.nodeType === 1) removed.push(r.element.nodeName);
    else if (r.element && r.element.nodeType === 7) removed.push((r.element as ProcessingInstruction).target);
  }
  removed.push(...state.found);
  return { svg: new state.window.XMLSerializer().serializeToString(root), removed: [...new Set(removed)] };
}
