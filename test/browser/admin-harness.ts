// The mocha hooks every admin UI browser suite shares: the demo server (and, if asked, another app
// on its database for the page to open) and Chromium once per suite, a fresh browser context and page
// per test, and no uncaught error in the page. Skips the suite when there is no browser (browser.ts).

import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AdminPage } from './admin-page';
import { browserUnavailable, launchChromium } from './browser';
import { startDemoServer, type SeededDemoServer } from '../support/demo-server';

/** An app the page opens instead of the demo server itself. */
export interface ServedApp {
  readonly origin: string;
  close(): Promise<void>;
}

export interface AdminBrowserOptions {
  /** The viewport's height (default 800; the width is 1280). */
  readonly height?: number;
  /** Let the page read and write the clipboard. */
  readonly clipboard?: boolean;
  /** Made once after the demo server starts; the admin page opens its origin. */
  readonly serve?: (server: SeededDemoServer) => Promise<ServedApp>;
}

/** What a test reads; each is there once the suite's hooks have run. */
export interface AdminBrowser {
  readonly server: SeededDemoServer;
  /** Where the admin page is opened: the served app's origin, else the demo server's. */
  readonly origin: string;
  readonly browser: Browser;
  readonly page: Page;
  readonly admin: AdminPage;
  /** Errors thrown in the page during the current test; any fails it. */
  readonly pageErrors: string[];
}

function ready<T>(value: T | undefined, what: string): T {
  return value ?? expect.fail(`${what} is not there: the browser suite's hooks have not run`);
}

/** Registers the hooks in the calling `describe` and returns what its tests use. */
export function useAdminBrowser(options: AdminBrowserOptions = {}): AdminBrowser {
  let server: SeededDemoServer | undefined;
  let served: ServedApp | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let admin: AdminPage | undefined;
  const pageErrors: string[] = [];
  const origin = (): string => served?.origin ?? ready(server, 'the demo server').origin;

  before(async function () {
    const missing = browserUnavailable();
    if (missing !== undefined) {
      console.log(`  browser tests skipped: ${missing}`);
      this.skip();
    }
    server = await startDemoServer();
    served = await options.serve?.(server);
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  beforeEach(async function () {
    context = await ready(browser, 'the browser').newContext({ viewport: { width: 1280, height: options.height ?? 800 } });
    if (options.clipboard === true) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: origin() });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    admin = new AdminPage(page, origin());
  });

  afterEach(async function () {
    await context?.close();
    expect(pageErrors.splice(0), 'uncaught errors in the page').to.deep.equal([]);
  });

  return {
    get server() {
      return ready(server, 'the demo server');
    },
    get origin() {
      return origin();
    },
    get browser() {
      return ready(browser, 'the browser');
    },
    get page() {
      return ready(page, 'the page');
    },
    get admin() {
      return ready(admin, 'the admin page');
    },
    pageErrors,
  };
}
