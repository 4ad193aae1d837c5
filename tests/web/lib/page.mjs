// What the page tests (tests/web/*.mjs) share: failing, Debian's headless chromium, and the judge's login.
//
// How to use:
//   import { WAIT, fail, launch, logIn, loginOf } from './lib/page.mjs';
//   const [user, pass] = loginOf('JUDGE_LOGIN');          // "user:password" from the environment
//   const browser = await launch();                       // launch(['--ignore-certificate-errors']) adds flags
//   await logIn(page, user, pass, { open: true });        // open: click the page's login button first
//
// fail() prints "FAIL: msg" (the C test reads it) and exits 1.
import { chromium } from 'playwright-core';

// Guards against a hang, not timings: CI runs the page tests beside the heavy vision suites on two cores.
export const WAIT = { timeout: 60000 };

export function fail(msg) {
  console.log('FAIL: ' + msg);
  process.exit(1);
}

// [user, password] of the environment variable `name` ("user:password"; both undefined when unset).
export function loginOf(name) {
  return (process.env[name] || '').split(':');
}

// Debian's chromium, headless, with the flags that work on these machines (no sandbox as root, no network
// beyond loopback), and `extra` flags.
export async function launch(extra = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', ...extra],
  }).catch((e) => fail('cannot start chromium: ' + e.message));
}

// Logs `page` in with the judge's form and waits until the broker accepted it. `open`: the page shows its login
// button, clicked first; else the form must be shown already. `why`: the failure's message (async, may read the
// page); by default "login as USER failed". `wait`: how long each step may take (WAIT).
export async function logIn(page, user, pass, { open = false, why, wait = WAIT } = {}) {
  if (open) await page.click('#login-open');
  else await page.waitForSelector('#login:not([hidden])', wait).catch(() => fail('no login form'));
  await page.fill('#login-user', user);
  await page.fill('#login-pass', pass || '');
  await page.click('#login button[type="submit"]');
  await page.waitForSelector('#link.ok', wait).catch(async () => fail(why ? await why() : 'login as ' + user + ' failed'));
}
