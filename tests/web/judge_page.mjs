// The judge's page and the streamer's overlay in Debian's headless chromium,
// driven by playwright-core, for tests/test_venue_web.c (which starts the
// broker and the scripted tables, and reads this script's stdout).
//
//   node judge_page.mjs BASE_URL EVENT OUT_DIR
//
// Prints "ready" once the judge's page shows table 1 (the C test then makes
// table 1 call an illegal move), then checks, in order, printing "FAIL: ..."
// and exiting 1 at the first that does not hold:
//   - the alert appears on table 1's card, with its unit; its latency;
//   - table 2's "cannot tell" and "not seen" are shown as such, not as an alert;
//   - table 3 (killed) is flagged offline;
//   - the overlay view (transparent) shows ILLEGAL and the distances;
//   - overrule with a reason: the table answers "applied", the overlay turns
//     to "JUDGE: MOVE STANDS";
// with screenshots in OUT_DIR, then prints "result {json}" and exits 0.
import { chromium } from 'playwright-core';

const [base, event, outDir] = process.argv.slice(2);
// JUDGE_LOGIN=user:password: the judge logs in (a broker with the venue's ACL); else an anonymous broker.
const [loginUser, loginPass] = (process.env.JUDGE_LOGIN || '').split(':');
const JUDGE = loginUser || 'judge-test';
const REASON = 'the spear was lifted, not moved';
// Guards against a hang, not timings: CI runs this beside the heavy vision suites on two cores.
const WAIT = { timeout: 30000 };

function fail(msg) {
  console.log('FAIL: ' + msg);
  process.exit(1);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  // The flags that work on these machines (no sandbox as root, no network beyond loopback).
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
}).catch((e) => fail('cannot start chromium: ' + e.message));

try {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const judge = await ctx.newPage();
  const errors = [];
  judge.on('pageerror', (e) => errors.push(e.message));
  await judge.addInitScript((name) => localStorage.setItem('tableref.judge', name), JUDGE);
  await judge.goto(`${base}/index.html?event=${event}`);
  if (loginUser) {
    await judge.click('#login-open');
    await judge.fill('#login-user', loginUser);
    await judge.fill('#login-pass', loginPass || '');
    await judge.click('#login button[type="submit"]');
    await judge.waitForSelector('#link.ok', WAIT).catch(() => fail('login as ' + loginUser + ' failed'));
  }
  await judge.waitForSelector('.card[data-table="1"]', WAIT).catch(() => fail('table 1 never shown'));

  const overlay = await ctx.newPage();
  await overlay.goto(`${base}/index.html?event=${event}&table=1&view=overlay`);
  const overlay2 = await ctx.newPage();
  await overlay2.goto(`${base}/index.html?event=${event}&table=2&view=overlay`);
  console.log('ready');

  // The alert table 1 publishes now.
  await judge.waitForSelector('.card[data-table="1"].alert', WAIT)
    .catch(() => fail('the alert never appeared on table 1'));
  const banner = await judge.textContent('.card[data-table="1"] .alert-banner');
  if (!/spears/.test(banner) || !/move 1/.test(banner)) fail('alert banner: ' + banner);
  const illegalRow = await judge.getAttribute('.card[data-table="1"] li.unit[data-unit="spears"]', 'data-verdict');
  if (illegalRow !== 'illegal') fail('spears shown as ' + illegalRow);
  await judge.waitForSelector('.card[data-table="1"] figure img:not([hidden])', WAIT)
    .catch(() => fail('no overlay picture on table 1'));
  await judge.waitForFunction(() => {
    const img = document.querySelector('.card[data-table="1"] figure img');
    return img && img.complete && img.naturalWidth > 0;
  }, null, WAIT).catch(() => fail('the picture did not decode'));
  const latency = await judge.evaluate(() => window.tableref.metrics.alerts.map((a) => a.shown_ms - a.wall_ms));
  if (!latency.length) fail('no alert latency recorded');

  // Table 2: a call that cannot be told and a unit not seen: never illegal, never an alert.
  const t2 = await judge.$$eval('.card[data-table="2"] li.unit', (lis) => lis.map((li) => li.dataset.verdict + ':' + li.querySelector('.badge').textContent));
  if (t2.join() !== 'cannot_tell:CANNOT TELL,not_seen:NOT SEEN') fail('table 2 rows: ' + t2.join());
  if (await judge.$('.card[data-table="2"].alert')) fail('table 2 raised an alert');

  // Table 3 was killed -9: its last will.
  await judge.waitForSelector('.card[data-table="3"][data-status="offline"]', WAIT)
    .catch(() => fail('table 3 not flagged offline'));

  // The overlay, before the judge: ILLEGAL and the distances, on a transparent page.
  await overlay.waitForSelector('.ov-banner[data-verdict="illegal"]', WAIT)
    .catch(() => fail('overlay: no ILLEGAL banner'));
  const ovText = await overlay.textContent('#overlay');
  if (!/10\.38"/.test(ovText) || !/limit 10\.00"/.test(ovText)) fail('overlay distances missing: ' + ovText);
  const bg = await overlay.evaluate(() => getComputedStyle(document.body).backgroundColor);
  if (bg !== 'rgba(0, 0, 0, 0)') fail('overlay background is not transparent: ' + bg);
  await overlay.screenshot({ path: `${outDir}/overlay-illegal.png`, omitBackground: true });
  await overlay2.waitForSelector('.ov-banner[data-verdict="cannot_tell"]', WAIT)
    .catch(() => fail('overlay table 2: no CANNOT TELL banner'));
  await overlay2.screenshot({ path: `${outDir}/overlay-cannot-tell.png`, omitBackground: true });
  await judge.screenshot({ path: `${outDir}/judge.png`, fullPage: true });

  // Overrule, with a reason: the command reaches the table, which answers.
  await judge.click('.card[data-table="1"] button[data-action="overrule"]');
  await judge.fill('.card[data-table="1"] form.command input[name="reason"]', REASON);
  const clicked = Date.now();
  await judge.click('.card[data-table="1"] form.command button[type="submit"]');
  await judge.waitForSelector('.card[data-table="1"] .sent[data-state="applied"]', WAIT)
    .catch(() => fail('the overrule was not answered by the table'));
  const roundTrip = Date.now() - clicked;
  if (await judge.$('.card[data-table="1"].alert')) fail('the alert is still raised after the overrule');
  const res = await judge.textContent('.card[data-table="1"] .resolution');
  if (!res.includes('Overruled by ' + JUDGE) || !res.includes(REASON)) fail('resolution: ' + res);
  await overlay.waitForSelector('.ov-banner[data-verdict="overruled"]', WAIT)
    .catch(() => fail('overlay did not follow the overrule'));
  await overlay.screenshot({ path: `${outDir}/overlay-overruled.png`, omitBackground: true });
  await judge.screenshot({ path: `${outDir}/judge-after.png`, fullPage: true });
  if (errors.length) fail('page errors: ' + errors.join('; '));
  const commands = await judge.evaluate(() => window.tableref.metrics.commands.map((c) => c.answered_ms - c.sent_ms));
  console.log('result ' + JSON.stringify({ alert_latency_ms: latency, overrule_round_trip_ms: roundTrip,
                                           command_answered_ms: commands }));
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
}
