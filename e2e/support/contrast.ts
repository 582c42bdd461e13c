import type { Locator } from '@playwright/test';

/**
 * The contrast ratio (WCAG 2) of an element's text against what is painted behind it, as the
 * page shows it: every ancestor's background and opacity is composited, so a row dimmed with
 * `opacity` is judged dimmed. Colours are read through a canvas, which turns any CSS colour
 * (Tailwind's oklch ones included) into sRGB. Overlapping siblings are not considered.
 */
export async function contrastOf(text: Locator): Promise<number> {
  return text.evaluate((el) => {
    type Rgba = [number, number, number, number];
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): Rgba => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data as unknown as number[];
      return [r! / 255, g! / 255, b! / 255, a! / 255];
    };
    /** `top` composited over `bottom` (straight alpha). */
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const c = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
      return [c(0), c(1), c(2), a];
    };
    const chain: Element[] = [];
    for (let n: Element | null = el; n; n = n.parentElement) chain.unshift(n);
    /** The colour at a point of `chain[i]`'s group: its background, its descendants on the chain, its opacity. */
    const group = (i: number, leaf: Rgba): Rgba => {
      const style = getComputedStyle(chain[i]!);
      const own = rgba(style.backgroundColor);
      const inner = i === chain.length - 1 ? leaf : group(i + 1, leaf);
      const g = over(inner, own);
      return [g[0], g[1], g[2], g[3] * Number(style.opacity)];
    };
    const white: Rgba = [1, 1, 1, 1];
    const fg = over(group(0, rgba(getComputedStyle(el).color)), white);
    const bg = over(group(0, [0, 0, 0, 0]), white);
    const luminance = ([r, g, b]: Rgba) => {
      const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  });
}
