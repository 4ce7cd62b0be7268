// Browser tests in Firefox: Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi, on
// the same rig as web-test-runner.config.mjs (the real sandbox and proxy at /api on the page's origin).
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteer from 'puppeteer-core';
import base from './web-test-runner.config.mjs';
import { findFirefox } from './scripts/firefox.mjs';

export default {
  ...base,
  browsers: [
    chromeLauncher({
      puppeteer,
      launchOptions: { browser: 'firefox', executablePath: findFirefox(), headless: true, extraPrefsFirefox: { 'browser.cache.memory.enable': false, 'browser.cache.disk.enable': false } },
    }),
  ],
};
