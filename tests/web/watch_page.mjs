// The judge's page in Debian's headless chromium against a real `tableref
// watch --mqtt` (tests/test_watch_web.c starts the broker and the watch, and
// reads this script's stdout).
//
//   node watch_page.mjs BASE_URL EVENT TABLE OUT_DIR
//
// Logs in as JUDGE_LOGIN (user:password), prints "ready" once the page is
// connected (the C test then starts the watch), then checks, printing
// "FAIL: ..." and exiting 1 at the first that does not hold:
//   - the table's card shows the cavalry's alert on move 3, then the
//     overlay picture of move 3 the watch sent, and a link to its evidence
//     clip (CLIP_URL/move-3.mp4);
//   - overrule with a reason: the watch answers "applied", the alert clears;
// with screenshots in OUT_DIR (watch-judge.png, watch-judge-after.png), then
// prints "result {json}" (the alert's wall time from the watch and when the
// page showed it, both ms since the epoch) and exits 0.
import { WAIT, fail, launch, logIn, loginOf } from './lib/page.mjs';

const [base, event, table, outDir] = process.argv.slice(2);
const [loginUser, loginPass] = loginOf('JUDGE_LOGIN');
const REASON = 'measured again with a tape';
const card = `.card[data-table="${table}"]`;

const browser = await launch();

try {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const judge = await ctx.newPage();
  const errors = [];
  judge.on('pageerror', (e) => errors.push(e.message));
  await judge.addInitScript((name) => localStorage.setItem('tableref.judge', name), loginUser);
  await judge.goto(`${base}/index.html?event=${event}`);
  await logIn(judge, loginUser, loginPass, { open: true, why: async () => 'login as ' + loginUser + ' failed: ' +
      JSON.stringify({ link: await judge.textContent('#link'), refused: await judge.textContent('#refused'), errors }) });
  console.log('ready');

  await judge.waitForSelector(`${card}.alert`, WAIT).catch(() => fail('the watch\'s alert never appeared'));
  const banner = await judge.textContent(`${card} .alert-banner`);
  if (!/cavalry/.test(banner) || !/move 3/.test(banner)) fail('alert banner: ' + banner);
  const row = await judge.getAttribute(`${card} li.unit[data-unit="cavalry"]`, 'data-verdict');
  if (row !== 'illegal') fail('cavalry shown as ' + row);
  // The picture of move 3 follows its alert (the alert goes out first).
  await judge.waitForFunction((sel) => {
    const img = document.querySelector(sel + ' figure img');
    const cap = document.querySelector(sel + ' figure figcaption');
    return img && !img.hidden && img.complete && img.naturalWidth > 0 && cap && cap.textContent === 'after move 3';
  }, card, WAIT).catch(() => fail('no overlay picture of move 3 from the watch'));
  const clip = await judge.getAttribute(`${card} a.clip`, 'href').catch(() => null);
  if (clip !== process.env.CLIP_URL + '/move-3.mp4') fail('the replay link: ' + clip);
  const alerts = await judge.evaluate(() => window.tableref.metrics.alerts);
  await judge.screenshot({ path: `${outDir}/watch-judge.png`, fullPage: true });

  await judge.click(`${card} button[data-action="overrule"]`);
  await judge.fill(`${card} form.command input[name="reason"]`, REASON);
  const clicked = Date.now();
  await judge.click(`${card} form.command button[type="submit"]`);
  await judge.waitForSelector(`${card} .sent[data-state="applied"]`, WAIT)
    .catch(() => fail('the watch did not answer the overrule'));
  const roundTrip = Date.now() - clicked;
  if (await judge.$(`${card}.alert`)) fail('the alert is still raised after the overrule');
  await judge.screenshot({ path: `${outDir}/watch-judge-after.png`, fullPage: true });
  if (errors.length) fail('page errors: ' + errors.join('; '));
  console.log('result ' + JSON.stringify({ alerts, overrule_round_trip_ms: roundTrip }));
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
}
