import { test as base, expect } from '@playwright/test';

export { expect };

/**
 * `test` with one automatic check. Engineers work on apps/web concurrently, and any
 * `node tools/start.mjs` rebuilds apps/web/dist when its sources are newer. A rebuild while the
 * suite runs replaces the hashed chunks: a page loaded before it asks for chunks that are gone,
 * the server answers them with index.html, and the page goes blank or shows the route error.
 * That is not a failure of the journey under test, so the test's report says so plainly.
 */
export const test = base.extend<{ assetGuard: void; cspGuard: void }>({
  /** Every journey also proves that the app runs under the server's Content Security Policy. */
  cspGuard: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
      });
      await use();
      expect(violations, 'the page broke the Content Security Policy').toEqual([]);
    },
    { auto: true },
  ],
  assetGuard: [
    async ({ page }, use, testInfo) => {
      const broken: string[] = [];
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (!url.pathname.startsWith('/assets/')) return;
        const type = res.headers()['content-type'] ?? '';
        if (res.status() >= 400 || type.startsWith('text/html')) broken.push(`${res.status()} ${type} ${url.pathname}`);
      });
      await use();
      if (broken.length > 0 && testInfo.status !== testInfo.expectedStatus) {
        const note =
          'The web app did not load: apps/web/dist changed under the running server (rebuilt by another process?). ' +
          `Assets answered wrongly: ${broken.slice(0, 5).join('; ')}`;
        testInfo.annotations.push({ type: 'environment', description: note });
        console.warn(`[${testInfo.title}] ${note}`);
      }
    },
    { auto: true },
  ],
});
