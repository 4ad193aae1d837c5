// The judge's page and the streamer's overlay over https, the broker over wss (tests/test_venue_tls.c: a set-up
// made with --tls and a certificate made in the test, the page served by `tableref venue serve`, table 1's alert
// published). Usage: node tls_page.mjs BASE EVENT OUTDIR; JUDGE_LOGIN=alice:PASSWORD, OVERLAY_LOGIN=obs:PASSWORD.
// Prints "result {json}", or "FAIL: ..." and exit 1.
import { WAIT, fail, launch, logIn, loginOf } from './lib/page.mjs';

const [base, event, outDir] = process.argv.slice(2);
const [loginUser, loginPass] = loginOf('JUDGE_LOGIN');
const [ovUser, ovPass] = loginOf('OVERLAY_LOGIN');
const card1 = '.card[data-table="1"]';

// The test's own certificate: accepted for this run only (a venue installs its CA on the tablets).
const browser = await launch(['--ignore-certificate-errors']);

try {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 }, ignoreHTTPSErrors: true });
  const judge = await ctx.newPage();
  const errors = [], sockets = [];
  judge.on('pageerror', (e) => errors.push(e.message));
  judge.on('websocket', (ws) => sockets.push(ws.url()));
  const response = await judge.goto(`${base}/index.html?event=${event}`).catch((e) => fail('goto: ' + e.message));
  const loaded = { status: response.status(), protocol: await judge.evaluate(() => location.protocol) };
  await logIn(judge, loginUser, loginPass,
    { open: true, why: async () => 'login over wss failed: ' + await judge.textContent('#link') });
  await judge.waitForSelector(`${card1}.alert`, WAIT).catch(() => fail('table 1\'s alert never showed'));
  const banner = await judge.textContent(`${card1} .alert-banner`);
  await judge.screenshot({ path: `${outDir}/tls-judge.png` });

  const overlay = await ctx.newPage();
  overlay.on('pageerror', (e) => errors.push(e.message));
  await overlay.goto(`${base}/index.html?event=${event}&table=1&view=overlay&user=${ovUser}&pass=${encodeURIComponent(ovPass || '')}`);
  await overlay.waitForFunction(() => /ILLEGAL/.test(document.querySelector('#ov-card')?.textContent || ''), null, WAIT)
    .catch(async () => fail('the overlay never showed the call: ' + await overlay.textContent('body')));
  const overlayProtocol = await overlay.evaluate(() => location.protocol);
  await overlay.screenshot({ path: `${outDir}/tls-overlay.png` });
  if (errors.length) fail('page errors: ' + errors.join(' | '));
  console.log('result ' + JSON.stringify({ loaded, banner, sockets, overlayProtocol }));
} catch (e) {
  fail(e.message);
} finally {
  await browser.close();
}
process.exit(0);
