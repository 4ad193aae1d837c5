// The judge's page as issue 32 asks (tests/test_venue_page.c starts the broker from `tableref venue setup`
// with 8 tables, table 1 running and its call 1 made, then drives the outage through stdin):
//   1. a link with a foreign broker= is refused on the page before any login form: no WebSocket is opened;
//   2. alice logs in: the page lists all 8 tables the set-up made, 7 of them "not started" (table 1 made call 1
//      before the page came: the page starts from it);
//   3. "down" (the broker was killed, table 1 made 3 calls meanwhile): card 1 says "no news since" and its
//      buttons are disabled;
//   4. "up" (the broker restarted, table 1 delivered): card 1 says calls #2, #3, #4 reached it late and lists
//      them, fetched or live;
//   5. table 2, whose watch ended with an alert standing, says when; alice settles the alert, and a second
//      page of alice's, logged in from another browser before the outage (both pages said so), sees it.
// Usage: node venue_page.mjs BASE EVENT OUTDIR; JUDGE_LOGIN=alice:PASSWORD. Prints "ready", "down-seen",
// then "result {json}"; "FAIL: ..." and exit 1 on the first failure.
import readline from 'readline';
import { WAIT, fail, launch, logIn, loginOf } from './lib/page.mjs';

const [base, event, outDir] = process.argv.slice(2);
const [loginUser, loginPass] = loginOf('JUDGE_LOGIN');
const SHORT = { timeout: 20000 };
const card1 = '.card[data-table="1"]';

const lines = readline.createInterface({ input: process.stdin });
const said = [];
let waiter = null;
lines.on('line', (l) => { said.push(l.trim()); if (waiter) waiter(); });
async function heard(word) {
  while (!said.includes(word)) await new Promise((r) => { waiter = r; });
}

const browser = await launch();

try {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });

  // 1. A foreign broker= is refused before a password can be typed.
  const lure = await ctx.newPage();
  const sockets = [];
  lure.on('websocket', (ws) => sockets.push(ws.url()));
  await lure.goto(`${base}/index.html?event=${event}&broker=ws://127.0.0.1:9/`);
  await lure.waitForSelector('#refused:not([hidden])', WAIT).catch(() => fail('a foreign broker= was not refused'));
  const refused = await lure.evaluate(() => ({
    text: document.querySelector('#refused').textContent,
    loginForm: !document.querySelector('#login').hidden,
    loginButton: !document.querySelector('#login-open').hidden,
  }));
  await lure.waitForTimeout(1500);
  if (!/refused/.test(refused.text) || !/ws:\/\/127\.0\.0\.1:9\//.test(refused.text)) fail('refusal: ' + refused.text);
  if (refused.loginForm || refused.loginButton) fail('a login is offered beside the refusal: ' + JSON.stringify(refused));
  if (sockets.length) fail('the refused page opened a WebSocket: ' + sockets.join(' '));
  await lure.screenshot({ path: `${outDir}/venue-refused.png` });
  await lure.close();

  // 2. Every table the set-up made, from the start.
  const judge = await ctx.newPage();
  const errors = [];
  judge.on('pageerror', (e) => errors.push(e.message));
  await judge.goto(`${base}/index.html?event=${event}`);
  await logIn(judge, loginUser, loginPass,
    { open: true, why: async () => 'login failed: ' + await judge.textContent('#link') });
  // Call 1 came before the page: the page starts from the table's latest call (its state), not listed.
  await judge.waitForSelector(`${card1}[data-status="online"]`, WAIT).catch(() => fail('table 1 never showed online'));
  await judge.waitForFunction(() => document.querySelectorAll('.card[data-table]').length === 8, null, WAIT)
    .catch(async () => fail('cards: ' + await judge.evaluate(() => document.querySelectorAll('.card[data-table]').length)));
  const listed = await judge.evaluate(() => [...document.querySelectorAll('.card[data-table]')]
    .map((c) => `${c.dataset.table}:${c.dataset.status}`));
  const summary = await judge.textContent('#summary');

  // A second login with alice's account (another browser): both pages say so.
  const ctx2 = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const second = await ctx2.newPage();
  second.on('pageerror', (e) => errors.push(e.message));
  await second.goto(`${base}/index.html?event=${event}`);
  await logIn(second, loginUser, loginPass, { open: true, why: async () => 'the second login failed' });
  await second.waitForSelector('#elsewhere:not([hidden])', SHORT).catch(() => fail('the second page does not say'));
  await judge.waitForSelector('#elsewhere:not([hidden])', SHORT).catch(() => fail('the first page does not say'));
  const elsewhere = [await judge.textContent('#elsewhere'), await second.textContent('#elsewhere')];
  console.log('ready');

  // 3. The broker is gone: no news, no buttons.
  await heard('down');
  await judge.waitForSelector(`${card1} .news:not([hidden])`, WAIT).catch(() => fail('card 1 never said "no news"'));
  const down = await judge.evaluate((sel) => {
    const c = document.querySelector(sel);
    return { news: c.querySelector('.news').textContent,
             disabled: [...c.querySelectorAll('.actions button:not([hidden])')].every((b) => b.disabled) };
  }, card1);
  if (!/^no news since \d\d:\d\d:\d\d/.test(down.news)) fail('news: ' + down.news);
  if (!down.disabled) fail('buttons enabled while the broker is unreachable');
  await judge.screenshot({ path: `${outDir}/venue-no-news.png` });
  console.log('down-seen');

  // 4. It is back: the calls made meanwhile are shown, the gap said.
  await heard('up');
  await judge.waitForSelector(`${card1} .calls li[data-call-no="4"]`, WAIT).catch(() => fail('call 4 never showed'));
  await judge.waitForSelector(`${card1} .news[hidden]`, { ...SHORT, state: 'attached' }).catch(async () => fail('"no news" stayed: ' +
    JSON.stringify({ link: await judge.textContent('#link'), news: await judge.textContent(`${card1} .news`) })));
  const after = await judge.evaluate((sel) => {
    const c = document.querySelector(sel);
    const gap = c.querySelector('.gap-note');
    return { calls: [...c.querySelectorAll('.calls li')].map((li) => `${li.dataset.callNo}:${li.dataset.how}`),
             gap: gap.hidden ? '' : gap.textContent, gapCalls: gap.dataset.calls || '',
             alert: c.classList.contains('alert') };
  }, card1);
  await judge.screenshot({ path: `${outDir}/venue-after-outage.png` });

  // 5. Table 2's watch ended with its alert standing: its card says when, and a judge settles the alert.
  const card2 = '.card[data-table="2"]';
  const ended = await judge.textContent(`${card2} .status-note`);
  await judge.click(`${card2} button[data-action="settle"]`).catch(() => fail('no settle button on the ended table'));
  await judge.fill(`${card2} form.command input[name="reason"]`, 'settled after the game: the move stands');
  await judge.click(`${card2} form.command button[type="submit"]`);
  await judge.waitForFunction((sel) => !document.querySelector(sel).classList.contains('alert'), card2, SHORT)
    .catch(() => fail('the ended table\'s alert was not settled'));
  const settled = await judge.textContent(`${card2} .resolution`);
  // Every judge's page sees the settle (the second, open all along).
  await second.waitForFunction((sel) => {
    const c = document.querySelector(sel);
    return c && !c.classList.contains('alert') && !c.querySelector('.resolution').hidden;
  }, card2, SHORT).catch(async () => fail('the other judge\'s page does not see the settle: ' + JSON.stringify(
    await second.evaluate(() => {
      const t = window.tableref.tables.get(2);
      return { settles: [...t.settles.values()], run: t.run, alert: t.alert, cls: document.querySelector('.card[data-table="2"]').className };
    }))));

  const settledLater = await second.textContent(`${card2} .resolution`);
  await judge.screenshot({ path: `${outDir}/venue-settled.png` });
  if (errors.length) fail('page errors: ' + errors.join(' | '));
  console.log('result ' + JSON.stringify({ listed, summary, down, after, ended, settled, settledLater, elsewhere }));
} catch (e) {
  fail(e.message);
} finally {
  await browser.close();
}
process.exit(0);
