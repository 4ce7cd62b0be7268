/**
 * For the tests of an element whose on-demand code fails to load (the test server fails its loads,
 * rig.ts failNextLoad): each element on a page of its own (helpers.ts freshPage), as a module
 * loaded, or failed, is the page's for the rest of it. card-reveal-load*.test.ts show why.
 */
import { expect } from 'chai';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { browserLoadsFailedModulesAgain, closeIdleConnections, failedLoads, failNextLoad, type FreshPage, type RigAccount } from '../../support/rig.ts';
import { freshPage, loginByEmail, mountIn, nextEvent, resetPage, text, useRigAccount } from './helpers.ts';

/** What every element but `<card-reveal>` says when its code did not load (`load_failed`). */
export const RELOAD = 'Part of this page couldn’t load. Check your connection, then reload the page.';

/**
 * The suite's rig: an account of its own over a fresh key store (`store`; logged in there with
 * `login`: the fresh pages share it), and whether this browser loads a module again after a failed load
 * (`retried`: not Chromium after a 5xx), set before the tests; the page reset after each.
 */
export function useLoadRig(login?: 'login'): { acct: RigAccount; dbName: string; store: KeyStore; retried: boolean } {
  const rig = {} as { acct: RigAccount; dbName: string; store: KeyStore; retried: boolean };
  before(async () => {
    const { acct, dbName, store } = await useRigAccount();
    if (login) await loginByEmail(acct);
    Object.assign(rig, { acct, dbName, store, retried: await browserLoadsFailedModulesAgain() });
  });
  afterEach(resetPage);
  return rig;
}

/** An element to put on a fresh page: over IndexedDB `dbName`, a `tag` with these attributes, and what `setup` sets before it connects (a property). */
export interface Subject {
  dbName: string;
  tag: string;
  attributes: Record<string, string>;
  setup?: (el: HTMLElement) => void;
}

/**
 * The `subject` on a fresh page (`act` then makes it load, if mounting does not) while the loads of
 * `path` fail (503), more often than asked for: the element asks for it once more at once, which
 * Chromium answers without a request after a 5xx, and a browser that loads a failed module again
 * (`retried`) with one; no more. Its `event` says `load_failed`, with the reload sentence in its
 * `error` part. Once the server serves the file again, a browser that keeps failed modules still
 * fails its import() on that page: why the sentence asks for a reload.
 */
export async function failedLoad<T extends HTMLElement>(path: string, retried: boolean, event: string, subject: Subject, act?: (el: T) => Promise<void>): Promise<{ el: T; page: FreshPage; detail: { code: string; message: string } }> {
  const page = await freshPage(subject.dbName);
  const failedBefore = await failedLoads(path);
  await failNextLoad(path, 5);
  const el = await mountIn<T>(page, subject.tag, subject.attributes, subject.setup);
  const error = nextEvent<CustomEvent>(el, event);
  await act?.(el);
  const { detail } = await error;
  expect((await failedLoads(path)) - failedBefore).to.equal(retried ? 2 : 1);
  expect(detail.code).to.equal('load_failed');
  expect(text(el, 'error')).to.contain(RELOAD);
  expect(detail.message).to.equal(RELOAD);
  await failNextLoad(path, 0);
  if (!retried) expect(await page.importAgain(path).then(() => 'loaded', () => 'failed')).to.equal('failed');
  return { el, page, detail };
}

/**
 * The `subject` on a fresh page while the connection of the next load of `path` drops (none of the
 * page's connections idle: one dropped connection is one failed load, which the browser does not
 * send again by itself): resolves once `ready`, having checked that the load did fail once and the
 * element told no `event` (an error) meanwhile.
 */
export async function droppedLoad<T extends HTMLElement>(path: string, event: string, subject: Subject, ready: (el: T) => Promise<unknown>): Promise<T> {
  const page = await freshPage(subject.dbName);
  await closeIdleConnections();
  const failedBefore = await failedLoads(path);
  await failNextLoad(path, 1, true);
  const el = await mountIn<T>(page, subject.tag, subject.attributes, subject.setup);
  const errors: string[] = [];
  el.addEventListener(event, (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
  await ready(el);
  expect((await failedLoads(path)) - failedBefore).to.equal(1);
  expect(errors).to.deep.equal([]);
  return el;
}

/**
 * The two tests of each of `paths` (modules a list element loads on demand): a `read` (of the list)
 * whose module did not load says to check the connection and reload the page (`failedLoad`, its
 * `operation` load, `failed` of the element then, no "Try again" beside it: reloading the page is
 * what works in every browser); and one whose connection dropped loads it again at once, unseen,
 * and `shows` what `ready` waits for (`droppedLoad`).
 */
export function itLoadsAgainOrSaysReload<T extends HTMLElement>(paths: string[], rig: { retried: boolean }, event: string, subject: () => Subject, read: string, failed: (el: T) => boolean, shows: string, ready: (el: T) => Promise<unknown>): void {
  for (const path of paths) {
    it(`${read} whose ${path} did not load says to check the connection and reload the page (load_failed)`, async () => {
      const { el, detail } = await failedLoad<T>(path, rig.retried, event, subject());
      expect((detail as { operation?: string }).operation).to.equal('load');
      expect(failed(el)).to.equal(true);
      expect(shownButtons(el)).to.not.include('Try again');
    });

    it(`loads ${path} again at once, unseen, after a dropped connection, and ${shows}`, async () => {
      const el = await droppedLoad<T>(path, event, subject(), ready);
      expect(text(el, 'error')).to.equal('');
    });
  }
}

/** The page of `el`'s asks for the module at `path` (Resource Timing). */
const asksIn = (el: Element, path: string) => (el.ownerDocument.defaultView!.performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => new URL(e.name).pathname === path);

/** Whether the page of `el` has asked for the module at `path`. */
export const requestedIn = (el: Element, path: string): boolean => asksIn(el, path).length > 0;

/** Whether the page of `el` has loaded the module at `path` (an answer of 200). */
export const loadedIn = (el: Element, path: string): boolean => asksIn(el, path).some((e) => e.responseStatus === 200);

/** The texts of the element's buttons. */
export const shownButtons = (el: Element): string[] => [...el.shadowRoot!.querySelectorAll('button')].map((b) => b.textContent!.trim());
