/**
 * Screenshots of <card-reveal>, <delegated-keys> and <agent-actions> in each of their main states,
 * light, dark and Arabic, and one of the whole demo for the README, taken from the real demo
 * (`npm start`'s program on a free port) in Chromium under its strict CSP.
 *
 *   node --import tsx test/e2e/screenshots.ts
 *
 * Writes docs/screenshots/<tag>/<state>-<light|dark|ar>.png and docs/screenshots/demo/demo.png.
 * Fails if the page reports a console error, an exception or a CSP violation meanwhile.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, launch, startDemo, waitForState, watch } from './harness.ts';

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const VARIANTS = ['light', 'dark', 'ar'] as const;
type Variant = (typeof VARIANTS)[number];

async function variant(page: Page, v: Variant): Promise<void> {
  await page.locator('#theme').selectOption(v === 'dark' ? 'dark' : 'light');
  await page.locator('#language').selectOption(v === 'ar' ? 'ar' : 'en');
  await page.waitForFunction((rtl) => document.documentElement.dir === (rtl ? 'rtl' : 'ltr'), v === 'ar');
  // Let every element finish its re-render (and fonts settle) before the picture.
  await page.waitForTimeout(250);
}

async function shootAll(page: Page, tag: string, state: string): Promise<void> {
  await mkdir(join(out, tag), { recursive: true });
  for (const v of VARIANTS) {
    await variant(page, v);
    await page.locator(tag).screenshot({ path: join(out, tag, `${state}-${v}.png`), animations: 'disabled' });
  }
  await variant(page, 'light');
}

async function main(): Promise<void> {
  const demo = await startDemo(await freePort());
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 1000 }, deviceScaleFactor: 1, colorScheme: 'light' });
    const problems = await watch(context);
    const page = await context.newPage();
    await page.goto(demo.url);
    await page.locator('wallet-login').getByRole('button', { name: 'Email me a code' }).waitFor();

    // <card-reveal>: the card face, then what a cardholder reads before proving the session.
    await shootAll(page, 'card-reveal', 'idle');
    await page.locator('card-reveal').getByRole('button', { name: 'Show card details' }).click();
    await waitForState(page, 'card-reveal', 'error');
    await shootAll(page, 'card-reveal', 'session-required');

    // Log in as a user would (email code 000000).
    await page.locator('wallet-login').getByRole('button', { name: 'Email me a code' }).click();
    await page.locator('wallet-login').getByLabel('Code', { exact: true }).fill('000000');
    await waitForState(page, 'wallet-login', 'logged-in');

    // <delegated-keys>: the empty list, the form refusing a duplicate currency, a created key.
    const keys = page.locator('delegated-keys');
    await keys.getByText('This card has no delegated keys yet.').waitFor();
    await shootAll(page, 'delegated-keys', 'empty');
    await keys.getByRole('button', { name: 'New key' }).click();
    await keys.getByLabel('Name', { exact: true }).fill('Online shopping');
    await keys.getByRole('button', { name: 'Add a limit' }).click();
    await keys.getByLabel('Currency').nth(0).fill('USD');
    await keys.getByLabel('Maximum', { exact: true }).nth(0).fill('5000');
    await keys.getByRole('button', { name: 'Add a limit' }).click();
    await keys.getByLabel('Currency').nth(1).fill('usd');
    await keys.getByLabel('Maximum', { exact: true }).nth(1).fill('9000');
    await keys.getByRole('button', { name: 'Create key' }).click();
    await keys.getByText('This currency already has a limit.').waitFor();
    await shootAll(page, 'delegated-keys', 'form-errors');
    await keys.getByRole('button', { name: 'Remove limit 2' }).click();
    await keys.getByRole('button', { name: 'Create key' }).click();
    await keys.getByText('$50.00 per payment').waitFor({ timeout: 20_000 });
    await shootAll(page, 'delegated-keys', 'active-key');

    // <card-reveal> shown: the sandbox processor's test card in the iframe, with the countdown.
    const reveal = page.locator('card-reveal');
    await reveal.getByRole('button', { name: /Show card details|Try again/ }).first().click();
    await waitForState(page, 'card-reveal', 'revealed');
    const frame = await (await reveal.locator('iframe').elementHandle())!.contentFrame();
    await frame!.getByText('Sandbox test card', { exact: false }).waitFor();
    await shootAll(page, 'card-reveal', 'revealed');

    // <agent-actions>: a new request waiting, then one decided from the demo console.
    const agent = page.locator('agent-actions');
    await page.getByRole('button', { name: 'Agent: request a payment' }).click();
    await agent.getByText('Payment out').first().waitFor();
    await page.waitForTimeout(500);
    await shootAll(page, 'agent-actions', 'list');
    await page.locator('#pending li').first().getByRole('button', { name: 'Reject' }).click();
    await agent.getByText('Rejected from the demo console').first().waitFor({ timeout: 30_000 });
    await shootAll(page, 'agent-actions', 'decision');

    // The whole demo for the README: logged in, card details shown.
    await mkdir(join(out, 'demo'), { recursive: true });
    if (!(await reveal.locator('iframe').count())) {
      await reveal.getByRole('button', { name: /Show/ }).first().click();
      await waitForState(page, 'card-reveal', 'revealed');
    }
    // A full-page capture leaves out-of-process (cross-origin) frames blank: grow the viewport to
    // the page's height instead, and let the processor frame repaint.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1360, height });
    const shown = await (await reveal.locator('iframe').elementHandle())!.contentFrame();
    await shown!.getByText('Sandbox test card', { exact: false }).waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(out, 'demo', 'demo.png'), animations: 'disabled' });

    const bad = [...problems.console, ...problems.pageErrors, ...problems.csp, ...problems.failedRequests];
    if (bad.length > 0) throw new Error(`the page reported problems:\n${bad.join('\n')}`);
    console.log(`screenshots written under ${out}`);
  } finally {
    await browser.close();
    await demo.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
