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
 * Waits for the CSS transitions and finite CSS animations under way to end. Switching the colour
 * scheme fades every `transition-colors` element for a moment, and a dialog fades and zooms in as
 * it opens; a contrast check made meanwhile measures colours the page never rests on (a CI run
 * failed on a dialog's button caught half faded in). Endless animations (a pulsing live dot) are
 * not waited for.
 */
export async function settleTransitions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = (a: Animation) => a instanceof CSSTransition || (a instanceof CSSAnimation && a.effect?.getTiming().iterations !== Infinity);
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // A colour scheme or viewport just switched may start its transitions a frame later: look
    // again after two frames until a look finds none running (at most about 3 s).
    const deadline = performance.now() + 3000;
    for (;;) {
      await frame();
      const running = document.getAnimations().filter((a) => finite(a) && a.playState === 'running');
      if (running.length === 0 || performance.now() > deadline) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

const inFlight = new WeakMap<Page, Map<object, number>>();

/** Starts counting the page's requests under way (for `settlePage`); idempotent. */
function trackRequests(page: Page): Map<object, number> {
  let open = inFlight.get(page);
  if (!open) {
    const requests = new Map<object, number>();
    page.on('request', (req) => requests.set(req, Date.now()));
    page.on('requestfinished', (req) => requests.delete(req));
    page.on('requestfailed', (req) => requests.delete(req));
    inFlight.set(page, (open = requests));
  }
  return open;
}

/**
 * Call before `page.goto`: from then on `settlePage` knows which of the page's requests are under
 * way.
 */
export function watchRequests(page: Page): void {
  trackRequests(page);
}

/**
 * Waits for a freshly opened screen to be at rest instead of sleeping a fixed time: its data
 * requests and lazy chunks answered (no request of the page under way for `quietMs`; a request
 * older than 10 s, such as a stream, is not waited for), the live link up where the screen shows
 * it, the web fonts loaded, and two frames drawn after that.
 */
export async function settlePage(page: Page, quietMs = 150): Promise<void> {
  const open = trackRequests(page);
  const live = page.getByTestId('live-status');
  if ((await live.count()) > 0) await expect(live).toHaveText('Sistema Activo', { timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const now = Date.now();
    const busy = [...open.values()].some((startedAt) => now - startedAt < 10_000);
    if (busy) quietSince = now;
    else if (now - quietSince >= quietMs) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}
