import { expect, type Page } from '@playwright/test';

/** The controls a person can click or type into. */
const INTERACTIVE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="checkbox"], [role="switch"], [role="menuitem"]';

/**
 * The layout guard: on the page as it is, every visible control's centre receives the click, i.e.
 * no other element (a card's footer, a sticky bar, a toast) lies over it. Each control is scrolled
 * to the middle of the viewport first, so that controls below the fold are checked too. Returns
 * the controls that are covered, each with what covers it.
 */
export async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const describe = (el: Element): string => {
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const id = el.getAttribute('data-testid') ?? el.id;
      return `<${el.tagName.toLowerCase()}${id ? ` #${id}` : ''}${el.className && typeof el.className === 'string' ? ` .${el.className.split(' ').slice(0, 3).join('.')}` : ''}> "${text}"`;
    };
    const covered: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || style.pointerEvents === 'none') continue;
      // Screen-reader-only until focused (the skip link): clipped away.
      if (style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)') continue;
      let rect = el.getBoundingClientRect();
      // Screen-reader-only controls and collapsed ones are not clicked by people.
      if (rect.width < 4 || rect.height < 4) continue;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      rect = el.getBoundingClientRect();
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      if (!top || el === top || el.contains(top)) continue;
      // A label wrapping its control receives the click for it.
      if (top instanceof HTMLLabelElement && top.control === el) continue;
      covered.push(`${describe(el)} is covered by ${describe(top)}`);
    }
    window.scrollTo(0, 0);
    return covered;
  }, INTERACTIVE);
}

export async function expectNoCoveredControls(page: Page, where: string): Promise<void> {
  expect(await coveredControls(page), `controls covered on ${where}`).toEqual([]);
}

/**
 * Waits for the CSS transitions under way to end. Switching the colour scheme fades every
 * `transition-colors` element for a moment; a contrast check made during the fade measures
 * colours the page never rests on. Endless animations (a pulsing live dot) are not waited for.
 */
export async function settleTransitions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const running = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
  });
}
