import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __canvasTexts?: string[];
  }
}

/**
 * Charts draw their words (threshold tags, gate states) on a <canvas>, out of reach of the DOM.
 * Before any page script runs, this wraps CanvasRenderingContext2D.fillText so that every text
 * drawn is recorded in the page; `canvasTexts` reads them back. Drawing itself is unchanged.
 */
export async function recordCanvasText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const texts: string[] = [];
    window.__canvasTexts = texts;
    const original = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) {
      if (texts.length > 5000) texts.splice(0, texts.length - 1000);
      texts.push(String(text));
      return maxWidth === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, maxWidth);
    };
  });
}

/** The texts drawn on canvases since `reset` (or since the page loaded). */
export async function canvasTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window.__canvasTexts ?? [])]);
}

/** Forgets the texts recorded so far, so that the next check sees only new drawing. */
export async function resetCanvasTexts(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__canvasTexts?.splice(0);
  });
}
