// tableref at the venue: the judge's page and the streamer's overlay.
// Topics and payloads: docs/formats.md, "Venue feed (MQTT)". No build step: this file is served as it is,
// after mqtt.js's browser bundle, overlay.js (the streamer's view), venue.js (the connection) and cards.js (a
// table's card).
'use strict';

(() => {
  const params = new URLSearchParams(location.search);
  const overlayView = params.get('view') === 'overlay';
  const onlyTable = params.has('table') ? Number(params.get('table')) : null;
  let eventName = params.get('event') || '';
  // The public feed may be held back (?delay=30: seconds), as chess broadcasts delay moves against cheating.
  const delayMs = Math.min(Math.max(Number(params.get('delay')) || 0, 0), 3600) * 1000;
  const tables = new Map();
  const metrics = { alerts: [], commands: [], messages: 0, held: [], calls: [] };
  let judgeUser = '';   // the logged-in judge: the only one who sees the command buttons (venue.js checks)
  let elsewhere = null; // another login with this account: { user, wall }
  // Read by the tests (tests/web/*.mjs) and handy in the console.
  window.tableref = { tables, metrics, delayMs };

  const VERDICT_WORD = { legal: 'LEGAL', illegal: 'ILLEGAL', cannot_tell: 'CANNOT TELL', not_seen: 'NOT SEEN' };
  const ACTION_DONE = { overrule: 'Overruled', accept: 'Overruled', confirm: 'Confirmed', undo: 'Undone',
                        settle: 'Settled' };
  // A running table publishes its state at least this often (its will says so too): older is no news.
  const HEARTBEAT_MS = 60000;

  const $ = (sel, root = document) => root.querySelector(sel);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const inches = (v) => (typeof v === 'number' && isFinite(v) ? v.toFixed(2) + '"' : null);
  const clock = (wall) => {
    const d = wall ? new Date(wall) : null;
    return d && !isNaN(d) ? d.toLocaleTimeString('en-GB', { hour12: false }) : ''; // HH:MM:SS, as the page's own
  };
  const commandName = (user) => user.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);

  function setLink(text, cls) {
    const link = $('#link');
    link.textContent = text;
    link.className = 'pill ' + (cls || '');
  }

  const venue = window.tablerefVenue({
    params, eventName, onlyTable, overlayView, commandName,
    onLink: (text, cls) => { setLink(text, cls); tables.forEach(render); },
    onConnect: connected,
    onRefusedLogin: () => {
      setJudge('');
      $(overlayView ? '#ov-login' : '#login').hidden = false;
    },
    onJudge: (user) => { if (!judgeUser) setJudge(user); },
    onElsewhere: (user, wall) => { elsewhere = { user, wall }; showElsewhere(); },
    onMessage: (topic, payload, meta) => (delayMs ? holdBack : onMessage)(topic, payload, meta),
  });

  // Every table the set-up made is listed once the page is connected (venue.json), started or not.
  function connected(lostAt) {
    const user = venue.conn.user;
    setLink(user ? 'connected as ' + user : 'connected (read only)', 'ok');
    if (user) $('#login').hidden = true;
    // No buttons until the broker shows this account is a judge's (a streamer's reads only).
    setJudge('');
    const listed = venue.conn.venue && eventName === venue.conn.venue.event ? venue.conn.venue.tables || [] : [];
    for (const n of listed) if (Number.isInteger(n) && (!onlyTable || n === onlyTable)) table(n).listed = true;
    // The calls made while the page had no news are told apart (cards.js's gap note) once each table's state
    // says its latest number.
    tables.forEach((t) => {
      if (lostAt) t.outage = { lostAt, backAt: Date.now(), noAtLoss: t.maxNo, pending: true };
      render(t);
    });
  }

  function setJudge(user) {
    judgeUser = user;
    document.body.classList.toggle('judge', !!user);
    tables.forEach(render);
  }

  function showElsewhere() {
    const box = $('#elsewhere');
    box.hidden = !elsewhere;
    if (elsewhere) box.textContent = `Another login with account ${elsewhere.user} is open` +
      (elsewhere.wall ? ` (since ${clock(elsewhere.wall)} by its clock)` : '') + ': both command as ' + elsewhere.user + '.';
  }

  // Every message waits delayMs before it is shown; the order is kept.
  function holdBack(topic, payload, meta) {
    const received = Date.now();
    setTimeout(() => {
      metrics.held.push({ topic, received_ms: received, shown_ms: Date.now() });
      onMessage(topic, payload, meta);
    }, delayMs);
  }

  // ---- messages ----

  function parse(payload) {
    try {
      return JSON.parse(new TextDecoder().decode(payload));
    } catch (e) {
      console.warn('tableref: not JSON', e);
      return null;
    }
  }

  function table(n) {
    let t = tables.get(n);
    if (!t) {
      // ruling: the last command the table applied; refused: the last it refused (shown, never a ruling).
      // calls: this run's numbered calls the page has (call_no -> brief); settles: judges' notes on an ended table.
      t = { n, status: null, call: null, alert: null, ruling: null, refused: null, standing: null, units: [],
            picture: null, pictureInfo: null, gapLost: 0, sent: null, seen: new Map(), lastHeard: null,
            listed: false, stateSeen: false, run: null, calls: new Map(), maxNo: 0, missed: null, outage: null,
            lastMsgAt: null, settles: new Map() };
      tables.set(n, t);
    }
    return t;
  }

  function onMessage(topic, payload, meta = {}) {
    metrics.messages++;
    const parts = topic.split('/');
    if (parts.length < 5 || parts[0] !== 'tableref' || parts[2] !== 'table') return;
    if (!eventName) return noteEvent(parts[1]);
    const n = Number(parts[3]);
    if (!Number.isInteger(n) || n < 1 || (onlyTable && n !== onlyTable)) return;
    const t = table(n);
    const leaf = parts[4];
    if (leaf === 'command') {
      if (!takeSettle(t, parts[5], payload)) return;
    } else if (leaf === 'picture') {
      t.lastMsgAt = Date.now();
      return setPicture(t, payload);
    } else if (leaf === 'status' || leaf === 'state' || leaf === 'event') {
      const msg = payload.length ? parse(payload) : null;
      if (!msg) return;
      t.lastMsgAt = Date.now();
      if (leaf === 'status') {
        // The time is the table's own (the status's wall; for a last will, worked out from the table's last
        // word in renderStatus); never this page's clock, which says when the page heard of it (a reload, a
        // late join), not when the table fell silent.
        t.statusSince = msg.wall || null;
        t.status = msg;
        heard(t, msg.wall || msg.connected);
      } else if (leaf === 'state') {
        heard(t, msg.wall);
        applyState(t, msg);
      } else {
        heard(t, msg.wall);
        const kind = meta.fetched ? msg.event : parts[5];
        noteCall(t, kind, msg, meta.fetched ? 'fetched' : 'live');
        if (!meta.fetched && !applyEvent(t, kind, msg)) return;
      }
    } else {
      return;
    }
    render(t);
    if (leaf === 'event' && parts[5] === 'alert') noteAlertShown(t, parse(payload));
  }

  // The table's last word: the latest of its own wall clock times seen (state, events, status, the will's
  // connection time).
  function heard(t, wall) {
    if (wall && !isNaN(Date.parse(wall)) && (!t.lastHeard || Date.parse(wall) > Date.parse(t.lastHeard))) t.lastHeard = wall;
  }

  // ---- numbered calls ----

  // A new run of the table (its watch started again) numbers its calls from 1.
  function followRun(t, run) {
    if (!run || run === t.run) return;
    t.run = run;
    t.calls.clear();
    t.maxNo = 0;
    t.missed = null;
  }

  // Numbers the page does not have in (from, to], in order.
  function lacking(t, from, to) {
    const out = [];
    for (let k = Math.max(from + 1, to - 63); k <= to; k++) if (!t.calls.has(k)) out.push(k);
    return out;
  }

  // Each numbered call (move_checked, alert, correction) kept in brief; a number skipped is fetched.
  function noteCall(t, kind, ev, how) {
    if (typeof ev.call_no !== 'number' || !ev.run) return;
    if (ev.run !== t.run) {
      if (how === 'fetched') return; // a call of an earlier run: not this table's story any more
      followRun(t, ev.run);
    }
    if (t.calls.has(ev.call_no)) return;
    t.calls.set(ev.call_no, { no: ev.call_no, kind, move: ev.move, legal: ev.legal, unit: ev.unit, action: ev.action,
                              applied: ev.applied, by: ev.by, wall: ev.wall, how });
    metrics.calls.push({ table: t.n, no: ev.call_no, kind, how, at: Date.now() });
    if (t.maxNo && ev.call_no > t.maxNo + 1) gap(t, lacking(t, t.maxNo, ev.call_no - 1));
    t.maxNo = Math.max(t.maxNo, ev.call_no);
  }

  // Calls the page missed: said on the card (cards.js) and fetched from the broker.
  function gap(t, numbers, outage) {
    if (!numbers.length) return;
    const missed = t.missed || { numbers: [], lostAt: null, backAt: null };
    missed.numbers = [...new Set([...missed.numbers, ...numbers])].sort((a, b) => a - b);
    if (outage) missed.lostAt = outage.lostAt, missed.backAt = outage.backAt;
    t.missed = missed;
    venue.fetchCalls(t.n, numbers.filter((k) => !t.calls.has(k)));
  }

  // The state's number is the table's latest call: what lies between the page's and it was missed.
  function numbersFromState(t, s) {
    followRun(t, s.run);
    const latest = typeof s.call_no === 'number' ? s.call_no : 0;
    if (t.outage && t.outage.pending) {
      t.outage.pending = false;
      if (latest > t.outage.noAtLoss) gap(t, lacking(t, t.outage.noAtLoss, latest).concat(
        [...t.calls.keys()].filter((k) => k > t.outage.noAtLoss && k <= latest)), t.outage);
    } else if (t.maxNo && latest > t.maxNo) {
      gap(t, lacking(t, t.maxNo, latest));
    }
    if (!t.maxNo) t.maxNo = latest; // a page that comes late starts from the table's latest call
  }

  // ---- the table's state and events ----

  // The feed sends the state after the events it folds in, so the state is never older than what came before it.
  // What the table says stands is its state: its ruling (the last command it applied) and its count of
  // illegal moves standing; a command it refused is noted but never taken for a ruling.
  function applyState(t, s) {
    t.stateSeen = true;
    t.stateRev = s.rev;
    const session = s.session && s.session.wall;
    if (session !== t.session) { t.ruling = t.refused = null; t.session = session; }
    numbersFromState(t, s);
    t.call = s.last_call || null;
    t.alert = s.last_alert || null;
    t.standing = typeof s.illegal_standing === 'number' ? s.illegal_standing : null;
    if (s.last_ruling !== undefined) t.ruling = s.last_ruling;
    t.stateCorrection = s.last_correction || null;   // as the table published them (read by the tests)
    t.stateRefused = s.last_refused || null;
    t.stateRuling = s.last_ruling || null;
    takeCorrection(t, s.last_correction);            // the table's state keeps applied corrections here
    takeCorrection(t, s.last_refused);               // and the commands it refused apart (never a ruling)
    t.units = s.units || [];
    t.pictureInfo = s.picture || null;
    t.feed = s.feed || null;
  }

  // Returns false for an event already applied (QoS 1 may deliver twice).
  function applyEvent(t, kind, ev) {
    if (kind === 'started') t.seen.clear();
    if (typeof ev.seq === 'number') {
      if ((t.seen.get(kind) || 0) >= ev.seq) return false;
      t.seen.set(kind, ev.seq);
    }
    switch (kind) {
      case 'started': t.call = t.alert = t.ruling = t.refused = t.standing = null; t.gapLost = 0; break;
      case 'move_checked': t.call = ev; break;
      case 'alert': if (ev.move) t.alert = ev; break;
      case 'correction':
        takeCorrection(t, ev);
        // The table's answer: the same id; or, where the table's log keeps no id, the same judge and action.
        if (t.sent && !t.sent.answer &&
            (ev.id ? ev.id === t.sent.id : ev.by === 'mqtt:' + t.sent.who && ev.action === t.sent.action)) {
          t.sent.answer = ev;
          metrics.commands.push({ table: t.n, id: ev.id, sent_ms: t.sent.at, answered_ms: Date.now() });
        }
        break;
      case 'feed_gap': t.gapLost += ev.lost || 0; break;
      default: break;
    }
    return true;
  }

  // A refused command is the table's answer to one judge, not a ruling: it never replaces the ruling.
  function takeCorrection(t, c) {
    if (!c || !c.action) return;
    if (c.applied === false) {
      if (!t.refused || !(c.seq <= t.refused.seq)) t.refused = c;
    } else if (c.action === 'overrule' || c.action === 'accept' || c.action === 'confirm' || c.action === 'undo') {
      if (!t.ruling || !(c.seq <= t.ruling.seq)) t.ruling = c;
    }
  }

  // A judge's settle of an ended table's alert (retained on command/JUDGE, never applied by a table): read
  // from every judge's topic. False for anything else there (live commands: the table's answer is what counts).
  function takeSettle(t, judge, payload) {
    const note = payload.length ? parse(payload) : null;
    if (!note || note.action !== 'settle' || typeof note.move !== 'number') return false;
    t.settles.set(judge, { ...note, by: 'mqtt:' + judge });
    return true;
  }

  function noteAlertShown(t, ev) {
    if (!ev || !ev.wall) return;
    // Both clocks are the venue machines' (one machine in the tests); the test reads these.
    metrics.alerts.push({ table: t.n, move: ev.move, seq: ev.seq, wall_ms: Date.parse(ev.wall), shown_ms: Date.now() });
  }

  function setPicture(t, payload) {
    if (t.picture) URL.revokeObjectURL(t.picture);
    t.picture = payload.length ? URL.createObjectURL(new Blob([payload], { type: 'image/jpeg' })) : null;
    render(t);
  }

  // ---- what a table's call means ----

  function verdictOf(u) {
    return u.verdict || (u.legal === false ? 'illegal' : 'legal');
  }

  // A judge's settle of this run's alert (its watch had ended), if any.
  function settleOf(t) {
    const a = t.alert;
    if (!a || !a.move) return null;
    for (const s of t.settles.values()) if ((!s.run || s.run === t.run) && s.move >= a.move) return s;
    return null;
  }

  // The alert still waiting for a judge: not overruled, confirmed or undone since, not settled after the
  // table's watch ended, and (when the table says so) an illegal move still standing.
  function pendingAlert(t) {
    const a = t.alert;
    if (!a || !a.move || t.standing === 0 || settleOf(t)) return null;
    const c = t.ruling;
    if (c && (c.seq === undefined || a.seq === undefined || c.seq > a.seq) &&
        (c.move === a.move || c.action === 'undo')) return null;
    return a;
  }

  const judgeOf = (c) => (c.by || 'judge').replace(/^mqtt:/, '');

  function resolution(t) {
    const settle = settleOf(t);
    const c = settle || t.ruling;
    if (!c || !t.alert) return null;
    return `${ACTION_DONE[c.action] || c.action} by ${judgeOf(c)}` + (settle ? ' (the table\'s watch had ended)' : '') +
      (c.reason ? `: ${c.reason}` : '');
  }

  function refusedNote(t) {
    const c = t.refused;
    if (!c) return null;
    return `Command refused by the table (${judgeOf(c)}, ${c.action}): ${c.why_not || c.reason || 'no reason given'}` +
      ' · nothing changed';
  }

  function overallVerdict(t) {
    if (!t.call || !t.call.units) return null;
    const vs = t.call.units.map(verdictOf);
    const c = t.ruling;
    if (vs.includes('illegal') && c && c.move === t.call.move &&
        (c.action === 'overrule' || c.action === 'accept')) return 'overruled';
    for (const v of ['illegal', 'cannot_tell', 'not_seen']) if (vs.includes(v)) return v;
    return 'legal';
  }

  // Why the page has no news of table t now (the broker unreachable, or the table silent past its heartbeat),
  // with since when by this page's clock; null when it has.
  function noNews(t) {
    if (venue.conn.lostAt) return { since: venue.conn.lostAt, why: 'the broker is unreachable' };
    const quiet = t.status && t.status.state !== 'offline' && t.lastMsgAt && Date.now() - t.lastMsgAt > HEARTBEAT_MS + 30000;
    return quiet ? { since: t.lastMsgAt, why: 'the table has not spoken past its heartbeat' } : null;
  }

  // ---- judge commands ----

  function sendCommand(t, action, reason) {
    const who = commandName(judgeUser);
    if (!who || !reason) return;
    const move = action === 'undo' ? 0 : ((pendingAlert(t) || t.call || {}).move || 0);
    const id = `${who}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    t.sent = { id, who, action, move, at: Date.now(), answer: null, error: null };
    // A settle goes to no table (its watch ended): kept retained for every judge's page; a command is live only.
    const settle = action === 'settle';
    const body = JSON.stringify(settle ? { action, move, reason, id, run: t.run, wall: new Date().toISOString() }
                                       : { action, move, reason, id });
    venue.publish(`${venue.topicBase(t.n)}/command/${who}`, body, { qos: 1, retain: settle }, (err) => {
      if (err) t.sent.error = err.message;
      else if (settle) t.sent.answer = { applied: true, settled: true };
      render(t);
    });
    render(t);
    setTimeout(() => render(t), 10000);
  }

  // The roll a player declares for a unit whose rate is dice: a "roll" command; the table judges the move again
  // against it and answers as for any command.
  function sendRoll(t, unit, rollIn) {
    const who = commandName(judgeUser);
    if (!who || !unit || !(rollIn >= 0 && rollIn <= 100)) return;
    const id = `${who}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const move = (t.call || {}).move || 0;
    t.sent = { id, who, action: `roll ${unit} ${rollIn}"`, move, at: Date.now(), answer: null, error: null };
    const body = JSON.stringify({ action: 'roll', unit, roll_in: rollIn, reason: 'roll declared', id });
    venue.publish(`${venue.topicBase(t.n)}/command/${who}`, body, { qos: 1, retain: false }, (err) => {
      if (err) t.sent.error = err.message;
      render(t);
    });
    render(t);
    setTimeout(() => render(t), 10000);
  }

  // The streamer's overlay (overlay.js) draws with the page's own words for a call; a judge's card is cards.js.
  const lib = { $, el, params, tables, metrics, overallVerdict, VERDICT_WORD, judgeOf, clock, inches, verdictOf,
                pendingAlert, resolution, refusedNote, noNews, sendCommand, sendRoll, overlayView,
                judge: () => judgeUser,
                connected: () => !venue.conn.lostAt && venue.conn.everConnected };
  const cards = window.tablerefCards(lib);
  lib.unitRow = cards.unitRow;
  const overlay = overlayView ? window.tablerefOverlay(lib) : null;

  function render(t) {
    if (overlayView) {
      if (t.n === onlyTable) overlay.render(t);
    } else if (venue.conn.everConnected) {
      cards.render(t);
    }
  }

  // ---- no event chosen: list the events seen ----

  const eventsSeen = new Set();
  function noteEvent(name) {
    if (eventsSeen.has(name)) return;
    eventsSeen.add(name);
    const nav = $('#events');
    nav.hidden = false;
    if (!nav.firstChild) nav.append(el('p', null, 'Events on this broker:'));
    const a = el('a', null, name);
    a.href = `?event=${encodeURIComponent(name)}`;
    nav.append(a);
  }

  // ---- start ----

  function refuse(text) {
    const box = $('#refused');
    box.hidden = false;
    box.textContent = text;
    document.querySelectorAll('#login, #ov-login, #login-open').forEach((e) => { e.hidden = true; });
    setLink('not connected', 'bad');
  }

  async function start() {
    document.body.classList.toggle('overlay', overlayView);
    $('#overlay').hidden = !overlayView;
    $('#grid').hidden = overlayView;
    document.querySelectorAll('.judge-only').forEach((e) => { if (overlayView) e.hidden = true; });
    $('#event-name').textContent = eventName ? '· ' + eventName : '';
    document.title = eventName ? `tableref · ${eventName}` : 'tableref · venue';
    $('#alerts-only').addEventListener('change', () => document.querySelectorAll('.card').forEach(cards.applyFilter));
    $('#login-open').addEventListener('click', () => { $('#login').hidden = false; $('#login-user').focus(); });
    $('#login').addEventListener('submit', (e) => {
      e.preventDefault();
      const user = $('#login-user').value.trim();
      // With the venue's ACL a judge may only command under their user name: the two are one.
      $('#login-open').textContent = user ? 'Logged in as ' + user : 'Log in';
      venue.connect(user, $('#login-pass').value);
    });
    $('#zoom').addEventListener('click', () => $('#zoom').close());
    if (overlayView && !onlyTable) {
      $('#overlay').hidden = false;
      $('#overlay').textContent = 'view=overlay needs table=N';
      return;
    }
    // The broker first: a page that would talk to another says so before anyone types a password.
    const conf = await venue.configure();
    if (conf.refused) return refuse(conf.refused);
    if (overlayView) {
      overlay.start(venue.connect);
    } else if (!venue.conn.client) {
      venue.connect(); // anonymous, unless a judge logged in while venue.json was read
    }
    // "No news since" comes with time alone (a table silent past its heartbeat).
    setInterval(() => tables.forEach(render), 5000);
  }

  start();
})();
