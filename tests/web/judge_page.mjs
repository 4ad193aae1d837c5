// The judge's page and the streamer's overlay in Debian's headless chromium,
// driven by playwright-core, for tests/test_venue_web.c (which starts the
// broker and the scripted tables, and reads this script's stdout).
//
//   node judge_page.mjs BASE_URL EVENT OUT_DIR SINCE_T4 HEARD_T4
//
// The broker is `tableref venue setup`'s (no anonymous access): checks that
// an anonymous visitor is refused and asked to log in, with no command
// buttons; logs in as JUDGE_LOGIN and checks that the buttons appear; a
// streamer (hall) logging in through the same form sees the tables, no buttons;
// VENUE_ACCOUNTS ("user:password ...") gives the other accounts (bob, the
// streamers stream, ov1, ov2, ovdelay); prints "ready" once the judge's page
// shows table 1 (the C test then makes table 1 call an illegal move), then
// checks, in order, printing "FAIL: ..." and exiting 1 at the first that does
// not hold:
//   - the alert appears on table 1's card, with its unit; its latency;
//   - the picture opens full size (1280 pixels wide) on a click;
//   - table 2's "cannot tell" and "not seen" are shown as such, not as an alert;
//   - table 3 (killed) is flagged offline, in grey and with other words than
//     an alert; table 4's note says "offline: last heard" its last word
//     (will's "connected", state's "wall": HEARD_T4) and never the bound
//     last word + heartbeat (SINCE_T4, its data-since), table 3's likewise
//     from its real will;
//   - tables 5 and 6 (a state whose last correction was refused): the
//     table's last_ruling and illegal_standing say what stands;
//   - the overlay view (transparent) shows the table's picture large, ILLEGAL
//     and the distances; a streamer account sees the same (a wrong password
//     brings up the overlay's login form); ?delay=3 shows
//     nothing sooner than 3 s after it arrived;
//   - overrule with a reason: the table answers "applied", the overlay turns
//     to "JUDGE: MOVE STANDS", which replaces the ILLEGAL sentence;
//   - bob sends a command the table refuses: the page still shows the
//     overrule, no alert; the overlay still "JUDGE: MOVE STANDS", no ILLEGAL;
//     the table's state says illegal_standing 0 and last_ruling alice's
//     overrule; a page (carol) and an overlay opened only then show the
//     overrule from the retained state alone;
// with screenshots in OUT_DIR, then prints "result {json}" and exits 0.
import { fail, launch, logIn, loginOf } from './lib/page.mjs';

const [base, event, outDir, sinceT4, heardT4] = process.argv.slice(2);
// JUDGE_LOGIN=user:password: the judge logs in.
const [loginUser, loginPass] = loginOf('JUDGE_LOGIN');
const JUDGE = loginUser;
// Every account the test uses, each for one connection only (the broker binds client ids to accounts).
const accounts = Object.fromEntries((process.env.VENUE_ACCOUNTS || '').split(' ').filter(Boolean)
  .map((a) => [a.slice(0, a.indexOf(':')), a.slice(a.indexOf(':') + 1)]));
const login = (user) => `user=${user}&pass=${encodeURIComponent(accounts[user] || '')}`;
const REASON = 'the spear was lifted, not moved';
// Guards against a hang, not timings: CI runs this beside the heavy vision suites on two cores.
const WAIT = { timeout: 30000 };

// The picture opens as large as the window on a click, never smaller than sent.
async function checkZoom(judge) {
  await judge.click('.card[data-table="1"] figure img');
  await judge.waitForSelector('#zoom[open] img', WAIT).catch(() => fail('the picture did not open'));
  const zoomed = await judge.evaluate(() => {
    const img = document.querySelector('#zoom img');
    const r = img.getBoundingClientRect();
    return { natural: img.naturalWidth, sent: window.tableref.tables.get(1).pictureInfo.width,
             scale: Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight), boxWidth: r.width };
  });
  // The picture the table sent (its state says how wide), as large as the window allows: never smaller.
  if (zoomed.natural !== zoomed.sent || zoomed.scale < 1 || zoomed.boxWidth < 0.9 * 1400) fail('zoomed picture: ' + JSON.stringify(zoomed));
  await judge.screenshot({ path: `${outDir}/judge-zoom.png` });
  await judge.keyboard.press('Escape');
  await judge.waitForSelector('#zoom:not([open])', { ...WAIT, state: 'attached' }).catch(() => fail('the zoom did not close'));
}

// OFFLINE vs ALERT, and what only the table's own words can say (tables 3 to 6).
async function checkOfflineAndTableWords(judge) {
  // OFFLINE and ALERT: other colours, other words (a colour-blind judge reads the words).
  const looks = await judge.evaluate(() => {
    const style = (sel) => getComputedStyle(document.querySelector(sel));
    return {
      alertBorder: style('.card[data-table="1"]').borderTopColor,
      offlineBorder: style('.card[data-table="3"]').borderTopColor,
      offlineStyle: style('.card[data-table="3"]').borderTopStyle,
      alertBanner: style('.card[data-table="1"] .alert-banner').backgroundColor,
      offlinePill: style('.card[data-table="3"] .status').backgroundColor,
      alertText: document.querySelector('.card[data-table="1"] .alert-banner').textContent,
      offlineText: document.querySelector('.card[data-table="3"] .status').textContent,
    };
  });
  if (looks.alertBorder === looks.offlineBorder || looks.alertBanner === looks.offlinePill ||
      looks.offlineStyle !== 'dashed' || !/ALERT/.test(looks.alertText) || !/OFFLINE/.test(looks.offlineText) ||
      /ALERT/.test(looks.offlineText)) fail('offline and alert look alike: ' + JSON.stringify(looks));
  // When a table went offline is the table's word: its last word plus its heartbeat, never the page's clock.
  await judge.waitForSelector('.card[data-table="4"][data-status="offline"]', WAIT)
    .catch(() => fail('table 4 not flagged offline'));
  // The page says when it last heard the table, never "since at most" a time that may be still to come.
  const since4 = await judge.evaluate(({ since, heard }) => ({
    data: document.querySelector('.card[data-table="4"] .status-note').dataset.since,
    text: document.querySelector('.card[data-table="4"] .status-note').textContent,
    want: new Date(heard).toLocaleTimeString('en-GB', { hour12: false }),
    bound: new Date(since).toLocaleTimeString('en-GB', { hour12: false }),
  }), { since: sinceT4, heard: heardT4 });
  if (since4.data !== sinceT4 || !since4.text.startsWith(`offline: last heard ${since4.want}, by the table's clock`) ||
      since4.text.includes(since4.bound) || /at most/.test(since4.text)) fail('table 4 since: ' + JSON.stringify(since4));
  // Tables 5 and 6: the table's state says what stands, whatever its last (refused) correction was.
  await judge.waitForSelector('.card[data-table="6"]', WAIT).catch(() => fail('table 6 never shown'));
  const fromState = await judge.evaluate(() => [5, 6].map((n) => {
    const c = document.querySelector(`.card[data-table="${n}"]`);
    return { alert: c.classList.contains('alert'), resolution: c.querySelector('.resolution').textContent,
             badge: c.querySelector('li.unit[data-unit="spears"] .badge').textContent,
             refused: c.querySelector('.refused').textContent };
  }));
  if (fromState[0].alert || fromState[0].resolution !== 'Overruled by alice: measured again with a tape' ||
      fromState[0].badge !== 'OVERRULED' || !/bob/.test(fromState[0].refused) || fromState[1].alert ||
      fromState[1].badge !== 'ILLEGAL') fail('tables 5 and 6 from their state: ' + JSON.stringify(fromState));
  // Table 3's real will: its connection time and heartbeat; its last word was its last state.
  const note3 = await judge.evaluate(() => ({
    text: document.querySelector('.card[data-table="3"] .status-note').textContent,
    atMost: document.querySelector('.card[data-table="3"] .status-note').dataset.since,
    status: window.tableref.tables.get(3).status,
    stateWall: window.tableref.tables.get(3).lastHeard,
    heard: new Date(window.tableref.tables.get(3).lastHeard).toLocaleTimeString('en-GB', { hour12: false }),
  }));
  const s3 = note3.status;
  if (!s3.will || !s3.connected || s3.heartbeat_s !== 60 || !note3.text.startsWith('offline: last heard ' + note3.heard) ||
      /at most/.test(note3.text) ||
      Date.parse(note3.atMost) - Date.parse(s3.connected) < 60000 ||
      Date.parse(note3.atMost) !== Date.parse(note3.stateWall) + 60000) fail('table 3 note: ' + JSON.stringify(note3));
}

// The overlay's picture: the table's, filling the frame's height.
async function overlayPicture(page, who) {
  await page.waitForFunction(() => {
    const img = document.querySelector('#ov-picture');
    return img && !img.hidden && img.complete && img.naturalWidth > 0;
  }, null, WAIT).catch(() => fail(who + ': no picture'));
  const box = await page.evaluate(() => {
    const r = document.querySelector('#ov-picture').getBoundingClientRect();
    return { w: r.width, h: r.height, natural: document.querySelector('#ov-picture').naturalWidth,
             sent: window.tableref.tables.get(1).pictureInfo.width,
             move: document.querySelector('#ov-picture').dataset.move };
  });
  // The picture fills the frame's height (1400 x 900 here) beside the card, not a thumbnail in a corner.
  if (box.w < 0.65 * 1400 || box.h !== 900 || box.natural !== box.sent || box.move !== '1') fail(who + ' picture: ' + JSON.stringify(box));
}

// A streamer who logs in through the judge's form reads the tables but is offered no command: only an
// account the set-up names as a judge is (the broker says which: the page's judge check never comes back).
async function checkStreamerLogin(ctx) {
  const page = await ctx.newPage();
  await page.goto(`${base}/index.html?event=${event}`);
  await logIn(page, 'hall', accounts.hall, { wait: WAIT });
  await page.waitForSelector('.card[data-table="1"]', WAIT).catch(() => fail('the streamer\'s login shows no table'));
  // Alice's check came back within milliseconds on this loopback broker; 3 s is ample for an answer.
  await page.waitForTimeout(3000);
  const seen = await page.evaluate(() => ({
    judge: document.body.classList.contains('judge'),
    cards: document.querySelectorAll('.card').length,
    buttons: [...document.querySelectorAll('.card .actions button')].filter((b) => b.offsetParent !== null).length,
    link: document.querySelector('#link').textContent,
  }));
  if (seen.judge || seen.buttons !== 0 || seen.cards < 2 || seen.link !== 'connected as hall')
    fail('a streamer logged in through the judge\'s form: ' + JSON.stringify(seen));
  await page.screenshot({ path: `${outDir}/judge-streamer.png`, fullPage: true });
  await page.close();
}

// Alice overruled; bob's command is refused: the page and the overlay still show the overrule.
async function checkRefusedCommand(ctx, judge, overlay) {
  // Bob sends table 1 a command it refuses: what the table says stands does not change.
  const bob = await ctx.newPage();
  await bob.goto(`${base}/index.html`);
  const bobSent = await bob.evaluate(({ url, topic, bobPass }) => new Promise((resolve) => {
    const c = mqtt.connect(url, { username: 'bob', password: bobPass, clientId: 'bob-test', reconnectPeriod: 0 });
    c.on('connect', () => c.publish(topic, '{"action":"explode","move":1,"reason":"bob says so"}', { qos: 1 }, (e) => { c.end(); resolve(e ? e.message : 'ok'); }));
    c.on('error', (e) => resolve(e.message));
  }), { url: base.replace(/^http/, 'ws') + '/', topic: `tableref/${event}/table/1/command/bob`, bobPass: accounts.bob });
  if (bobSent !== 'ok') fail('bob could not send: ' + bobSent);
  await judge.waitForFunction(() => {
    const t = window.tableref.tables.get(1);
    // The table's state keeps the refused command apart (last_refused); its ruling (last_correction) stays alice's.
    return t.refused && t.stateRefused && t.stateRefused.applied === false &&
      t.stateCorrection && t.stateCorrection.action === 'overrule';
  }, null, WAIT).catch(async () => fail('the table never published the refused command: ' +
    JSON.stringify(await judge.evaluate(() => { const t = window.tableref.tables.get(1); return [t.refused, t.stateRefused, t.stateCorrection, t.ruling]; }))));
  await overlay.waitForFunction(() => {
    const t = window.tableref.tables.get(1);
    return t.stateRefused && t.stateRefused.applied === false;
  }, null, WAIT).catch(() => fail('the overlay never saw the refused command'));
  if (await judge.$('.card[data-table="1"].alert')) fail('the refused command brought the alert back');
  const res2 = await judge.textContent('.card[data-table="1"] .resolution');
  if (!res2.includes('Overruled by ' + JUDGE)) fail('resolution after the refused command: ' + res2);
  const refusedNote = await judge.textContent('.card[data-table="1"] .refused');
  if (!/refused/.test(refusedNote) || !/bob/.test(refusedNote)) fail('refused note: ' + refusedNote);
  const badge = await judge.textContent('.card[data-table="1"] li.unit[data-unit="spears"] .badge');
  if (badge !== 'OVERRULED') fail('spears after the refused command: ' + badge);
  if (!await overlay.$('.ov-banner[data-verdict="overruled"]')) fail('the overlay lost the overrule');
  if (/ILLEGAL/.test(await overlay.textContent('#ov-card'))) fail('the overlay shows ILLEGAL again');
  // The table's own retained state carries what stands: alice's overrule, no illegal call standing.
  const st = await judge.evaluate(() => { const t = window.tableref.tables.get(1); return { standing: t.standing, ruling: t.stateRuling }; });
  if (st.standing !== 0 || !st.ruling || st.ruling.action !== 'overrule' || st.ruling.by !== 'mqtt:' + JUDGE)
    fail('the state after the refused command: ' + JSON.stringify(st));
  await judge.screenshot({ path: `${outDir}/judge-refused.png`, fullPage: true });
  await overlay.screenshot({ path: `${outDir}/overlay-refused.png`, omitBackground: true });
  // A page and an overlay opened only now know the ruling from the retained state alone (no event replayed).
  const late = await ctx.newPage();
  await late.goto(`${base}/index.html?event=${event}`);
  await logIn(late, 'carol', accounts.carol, { wait: WAIT });
  await late.waitForFunction(() => {
    const t = window.tableref.tables.get(1);
    return t && t.stateRefused && t.stateRuling;
  }, null, WAIT).catch(() => fail('the late page never got table 1\'s state'));
  const lateCard = await late.evaluate(() => {
    const c = document.querySelector('.card[data-table="1"]');
    return { alert: c.classList.contains('alert'), resolution: c.querySelector('.resolution').textContent,
             badge: c.querySelector('li.unit[data-unit="spears"] .badge').textContent,
             refused: c.querySelector('.refused').textContent };
  });
  if (lateCard.alert || !lateCard.resolution.startsWith('Overruled by ' + JUDGE) || lateCard.badge !== 'OVERRULED' ||
      !/bob/.test(lateCard.refused)) fail('a page opened after the refused command: ' + JSON.stringify(lateCard));
  await late.screenshot({ path: `${outDir}/judge-late.png`, fullPage: true });
  const lateOverlay = await ctx.newPage();
  await lateOverlay.goto(`${base}/index.html?event=${event}&table=1&view=overlay&${login('ovlate')}`);
  await lateOverlay.waitForSelector('.ov-banner[data-verdict="overruled"]', WAIT)
    .catch(async () => fail('an overlay opened after the refused command: ' + await lateOverlay.textContent('#overlay')));
  if (/ILLEGAL/.test(await lateOverlay.textContent('#ov-card'))) fail('the late overlay shows ILLEGAL');
}

const browser = await launch();

try {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const judge = await ctx.newPage();
  const errors = [];
  judge.on('pageerror', (e) => errors.push(e.message));
  await judge.addInitScript((name) => localStorage.setItem('tableref.judge', name), JUDGE);
  await judge.goto(`${base}/index.html?event=${event}`);
  // Anonymous: the broker refuses (no anonymous access); the page asks to log in and shows no buttons.
  await judge.waitForSelector('#login:not([hidden])', WAIT).catch(async () => fail('no login form for an anonymous visitor: ' +
    await judge.textContent('#link')));
  if (await judge.$('.card .actions button:visible')) fail('an anonymous visitor sees command buttons');
  if (!loginUser) fail('JUDGE_LOGIN is not set');
  {
    await logIn(judge, loginUser, loginPass, { wait: WAIT });
    await judge.waitForSelector('.card[data-table="1"] .actions button[data-action="overrule"]:visible', WAIT)
      .catch(() => fail('the logged-in judge sees no command buttons'));
  }
  await judge.waitForSelector('.card[data-table="1"]', WAIT).catch(() => fail('table 1 never shown'));

  const overlay = await ctx.newPage();
  await overlay.goto(`${base}/index.html?event=${event}&table=1&view=overlay&${login('ov1')}`);
  const overlay2 = await ctx.newPage();
  await overlay2.goto(`${base}/index.html?event=${event}&table=2&view=overlay&${login('ov2')}`);
  // The streamer's read-only account, and the public feed held back 3 s.
  const streamer = await ctx.newPage();
  await streamer.goto(`${base}/index.html?event=${event}&table=1&view=overlay&${login('stream')}`);
  const delayed = await ctx.newPage();
  await delayed.goto(`${base}/index.html?event=${event}&table=1&view=overlay&delay=3&${login('ovdelay')}`);
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
  // A visitor who did not log in: refused by the broker, asked to log in, no table and no buttons.
  const visitor = await ctx.newPage();
  await visitor.goto(`${base}/index.html?event=${event}`);
  await visitor.waitForSelector('#login:not([hidden])', WAIT).catch(() => fail('the visitor is not asked to log in'));
  if (await visitor.$('.card') || await visitor.$('.card .actions button:visible')) fail('an anonymous visitor sees the tables');
  await visitor.screenshot({ path: `${outDir}/judge-anonymous.png`, fullPage: true });
  await visitor.close();
  await checkStreamerLogin(ctx);

  await checkZoom(judge);
  const latency = await judge.evaluate(() => window.tableref.metrics.alerts.map((a) => a.shown_ms - a.wall_ms));
  if (!latency.length) fail('no alert latency recorded');

  // Table 2: a call that cannot be told and a unit not seen: never illegal, never an alert.
  const t2 = await judge.$$eval('.card[data-table="2"] li.unit', (lis) => lis.map((li) => li.dataset.verdict + ':' + li.querySelector('.badge').textContent));
  if (t2.join() !== 'cannot_tell:CANNOT TELL,not_seen:NOT SEEN') fail('table 2 rows: ' + t2.join());
  if (await judge.$('.card[data-table="2"].alert')) fail('table 2 raised an alert');

  // Table 3 was killed -9: its last will.
  await judge.waitForSelector('.card[data-table="3"][data-status="offline"]', WAIT)
    .catch(() => fail('table 3 not flagged offline'));
  await checkOfflineAndTableWords(judge);
  // The overlay, before the judge: ILLEGAL and the distances, on a transparent page.
  await overlay.waitForSelector('.ov-banner[data-verdict="illegal"]', WAIT)
    .catch(() => fail('overlay: no ILLEGAL banner'));
  const ovText = await overlay.textContent('#overlay');
  if (!/10\.38"/.test(ovText) || !/limit 10\.00"/.test(ovText)) fail('overlay distances missing: ' + ovText);
  const bg = await overlay.evaluate(() => getComputedStyle(document.body).backgroundColor);
  if (bg !== 'rgba(0, 0, 0, 0)') fail('overlay background is not transparent: ' + bg);
  await overlayPicture(overlay, 'overlay');
  await overlay.screenshot({ path: `${outDir}/overlay-illegal.png`, omitBackground: true });
  await streamer.waitForSelector('.ov-banner[data-verdict="illegal"]', WAIT)
    .catch(() => fail('streamer account: no ILLEGAL banner'));
  await overlayPicture(streamer, 'streamer');
  if (!/connected as stream/.test(await streamer.textContent('#link'))) fail('streamer not logged in');
  // A wrong password: the broker refuses, the overlay asks (a small form), it does not spin.
  const refusedStreamer = await ctx.newPage();
  await refusedStreamer.goto(`${base}/index.html?event=${event}&table=1&view=overlay&user=stream&pass=wrong`);
  await refusedStreamer.waitForSelector('#ov-login', WAIT).catch(async () => fail('no login form after a wrong password: ' +
    await refusedStreamer.textContent('#link')));
  await refusedStreamer.close();
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
  const ovAfter = await overlay.textContent('#ov-card');
  if (/ILLEGAL/.test(ovAfter) || !/MOVE STANDS · overruled by/.test(ovAfter)) fail('overlay after the overrule: ' + ovAfter);
  await judge.screenshot({ path: `${outDir}/judge-after.png`, fullPage: true });

  // The delayed feed caught up with the overrule, each message at least 3 s after it came.
  await delayed.waitForSelector('.ov-banner[data-verdict="overruled"]', WAIT)
    .catch(() => fail('delayed overlay never showed the overrule'));
  const held = await delayed.evaluate(() => window.tableref.metrics.held.map((h) => h.shown_ms - h.received_ms));
  if (!held.length || Math.min(...held) < 2990) fail('delayed overlay held messages: ' + held.join());

  await checkRefusedCommand(ctx, judge, overlay);
  if (errors.length) fail('page errors: ' + errors.join('; '));
  const commands = await judge.evaluate(() => window.tableref.metrics.commands.map((c) => c.answered_ms - c.sent_ms));
  console.log('result ' + JSON.stringify({ alert_latency_ms: latency, overrule_round_trip_ms: roundTrip,
                                           command_answered_ms: commands }));
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
}
