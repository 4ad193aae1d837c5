// tableref at the venue: the judge's page and the streamer's overlay.
// Topics and payloads: docs/formats.md, "Venue feed (MQTT)". No build step:
// this file is served as it is, next to mqtt.js's browser bundle.
'use strict';

(() => {
  const params = new URLSearchParams(location.search);
  const overlayView = params.get('view') === 'overlay';
  const onlyTable = params.has('table') ? Number(params.get('table')) : null;
  let eventName = params.get('event') || '';
  // The public feed may be held back (?delay=30: seconds), as chess broadcasts delay moves against cheating.
  const delayMs = Math.min(Math.max(Number(params.get('delay')) || 0, 0), 3600) * 1000;
  const tables = new Map();
  const metrics = { alerts: [], commands: [], messages: 0, held: [] };
  let client = null;
  let judgeUser = '';   // the logged-in judge: the only one who sees the command buttons (checkJudge)
  let judgeCheck = null; // the check under way: { user, topic, nonce }
  // Read by the tests (tests/web/judge_page.mjs) and handy in the console.
  window.tableref = { tables, metrics, delayMs };

  const VERDICT_WORD = { legal: 'LEGAL', illegal: 'ILLEGAL', cannot_tell: 'CANNOT TELL', not_seen: 'NOT SEEN' };
  const ACTION_DONE = { overrule: 'Overruled', accept: 'Overruled', confirm: 'Confirmed', undo: 'Undone' };

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
    return d && !isNaN(d) ? d.toLocaleTimeString() : '';
  };

  // ---- connection ----

  function brokerUrl() {
    if (params.get('broker')) return params.get('broker');
    // Served by Mosquitto's http_dir: the WebSockets listener is this very server.
    if (location.protocol === 'http:' || location.protocol === 'https:') {
      return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
    }
    return 'ws://127.0.0.1:9001/';
  }

  function setLink(text, cls) {
    const link = $('#link');
    link.textContent = text;
    link.className = 'pill ' + (cls || '');
  }

  function topicBase(n) {
    return `tableref/${eventName}/table/${n}`;
  }

  function connect(username, password) {
    if (client) client.end(true);
    const opts = {
      clientId: (overlayView ? 'overlay-' : 'judge-') + Math.random().toString(16).slice(2, 10),
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
      protocolVersion: 4,
    };
    if (username) {
      opts.username = username;
      opts.password = password || '';
    }
    client = mqtt.connect(brokerUrl(), opts);
    client.on('connect', () => {
      setLink(username ? 'connected as ' + username : 'connected (read only)', 'ok');
      // Only a login closes the form: the anonymous connection at start may come after the judge opened it.
      if (username) $('#login').hidden = true;
      // No buttons until the broker shows this account is a judge's (a streamer's reads only).
      setJudge('');
      if (username && !overlayView && eventName) checkJudge(username);
      if (!eventName) {
        client.subscribe('tableref/+/table/+/status', { qos: 1 });
      } else {
        client.subscribe(onlyTable ? `${topicBase(onlyTable)}/#` : `tableref/${eventName}/table/+/#`, { qos: 1 });
      }
    });
    client.on('reconnect', () => setLink('reconnecting…', 'warn'));
    client.on('offline', () => setLink('broker unreachable', 'bad'));
    client.on('error', (err) => {
      setLink('broker: ' + err.message, 'bad');
      if (/auth|credential|identifier|password/i.test(err.message)) {
        client.end(true);
        setJudge('');
        $(overlayView ? '#ov-login' : '#login').hidden = false;
      }
    });
    client.on('message', (topic, payload) => {
      if (!judgeChecked(topic, payload)) (delayMs ? holdBack : onMessage)(topic, payload);
    });
  }

  function setJudge(user) {
    judgeUser = user;
    document.body.classList.toggle('judge', !!user);
    tables.forEach(render);
  }

  // Only an account the venue's set-up names as a judge may command, and only the broker knows which
  // those are: its ACL lets a judge write .../command/<own name> and read the event, a streamer neither
  // (docs/venue.md). So the page sends a note where only a judge may write and read, on no table
  // ("check": no table subscribes there, other pages skip it), and shows the buttons once it comes back.
  function checkJudge(user) {
    const nonce = Math.random().toString(16).slice(2, 10);
    judgeCheck = { user, nonce, topic: `${topicBase('check')}/command/${commandName(user)}` };
    client.subscribe(judgeCheck.topic, { qos: 1 });
    client.publish(judgeCheck.topic, JSON.stringify({ format: 'tableref.venue.judge_check', nonce }), { qos: 1 });
  }

  function judgeChecked(topic, payload) {
    if (!judgeCheck || topic !== judgeCheck.topic) return false;
    const note = parse(payload);
    if (note && note.nonce === judgeCheck.nonce && !judgeUser) setJudge(judgeCheck.user);
    return true;
  }

  // Every message waits delayMs before it is shown; the order is kept.
  function holdBack(topic, payload) {
    const received = Date.now();
    setTimeout(() => {
      metrics.held.push({ topic, received_ms: received, shown_ms: Date.now() });
      onMessage(topic, payload);
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
      t = { n, status: null, call: null, alert: null, ruling: null, refused: null, standing: null, units: [],
            picture: null, pictureInfo: null, gapLost: 0, sent: null, seen: new Map(), lastHeard: null };
      tables.set(n, t);
    }
    return t;
  }

  function onMessage(topic, payload) {
    metrics.messages++;
    const parts = topic.split('/');
    if (parts.length < 5 || parts[0] !== 'tableref' || parts[2] !== 'table') return;
    if (!eventName) return noteEvent(parts[1]);
    const n = Number(parts[3]);
    if (!Number.isInteger(n) || n < 1 || (onlyTable && n !== onlyTable)) return;
    const t = table(n);
    const leaf = parts[4];
    if (leaf === 'picture') {
      setPicture(t, payload);
    } else if (leaf === 'status' || leaf === 'state' || leaf === 'event') {
      const msg = payload.length ? parse(payload) : null;
      if (!msg) return;
      if (leaf === 'status') {
        // The time is the table's own (the status's wall; for a last will, worked out from the table's last
        // word in renderStatus); never this page's clock, which says when the page heard of it (a reload, a
        // late join), not when the table fell silent.
        t.statusSince = msg.wall || null;
        t.status = msg;
        heard(t, msg.wall || msg.connected);
      } else {
        heard(t, msg.wall);
        if (leaf === 'state') applyState(t, msg);
        else if (!applyEvent(t, parts[5], msg)) return;
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

  // When an offline table went offline, in the table's own words: a status it sent says so (its wall); a
  // last will cannot (it was written at connection), but the table speaks at least every heartbeat_s
  // (its state), so it was offline at the latest heartbeat_s after its last word. That bound is kept
  // for machines (data-since), not shown: the will comes about 1.5 keepalives after the table's last
  // packet, long before a heartbeat is up, so "since at most" would name a time still to come.
  function offlineWhen(t) {
    const s = t.status;
    if (!s.will) return t.statusSince ? { since: t.statusSince, text: `offline since ${clock(t.statusSince)}` } : null;
    if (!t.lastHeard) return null;
    const heard = `offline: last heard ${clock(t.lastHeard)}, by the table's clock`;
    if (!(s.heartbeat_s > 0)) return { since: '', text: `${heard} (its will gives no heartbeat)` };
    const atMost = new Date(Date.parse(t.lastHeard) + s.heartbeat_s * 1000).toISOString();
    return { since: atMost, text: `${heard} (a running table speaks every ${s.heartbeat_s} s)` };
  }

  // The feed sends the state after the events it folds in, so the state is never older than what came before it.
  // What the table says stands is its state: its ruling (the last command it applied) and its count of
  // illegal moves standing; a command it refused is noted but never taken for a ruling.
  function applyState(t, s) {
    t.stateRev = s.rev;
    const session = s.session && s.session.wall;
    if (session !== t.session) { t.ruling = t.refused = null; t.session = session; }
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

  // The alert still waiting for a judge: not overruled, confirmed or undone since, and (when the table
  // says so) an illegal move still standing.
  function pendingAlert(t) {
    const a = t.alert;
    if (!a || !a.move || t.standing === 0) return null;
    const c = t.ruling;
    if (c && (c.seq === undefined || a.seq === undefined || c.seq > a.seq) &&
        (c.move === a.move || c.action === 'undo')) return null;
    return a;
  }

  const judgeOf = (c) => (c.by || 'judge').replace(/^mqtt:/, '');

  function resolution(t) {
    const c = t.ruling;
    if (!c || !t.alert) return null;
    return `${ACTION_DONE[c.action] || c.action} by ${judgeOf(c)}` + (c.reason ? `: ${c.reason}` : '');
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

  function distanceText(u) {
    const d = u.distance || {};
    const bits = [];
    if (inches(d.path_in)) bits.push('path ' + inches(d.path_in));
    if (inches(d.farthest_in)) bits.push('farthest ' + inches(d.farthest_in) + (d.farthest_model ? ` (${d.farthest_model})` : ''));
    if (inches(d.rate_in)) bits.push('limit ' + inches(d.rate_in));
    return bits.join(' · ');
  }

  // ruling: the judge's overrule, when the judge let the move stand: its words replace the rules'
  // ILLEGAL sentence (kept in the row's title and data).
  function unitRow(u, ruling) {
    const overruled = !!ruling;
    const v = verdictOf(u);
    const judged = overruled && v === 'illegal';
    const li = el('li', 'unit v-' + (judged ? 'overruled' : v));
    li.dataset.verdict = v;
    li.dataset.unit = u.unit;
    if (judged) li.dataset.judge = 'overruled';
    const needsRoll = u.needs === 'roll' && !judged; // random movement: no call until the roll is declared
    li.append(el('span', 'badge', judged ? 'OVERRULED' : needsRoll ? 'NEEDS THE ROLL' : VERDICT_WORD[v] || v.toUpperCase()),
      ' ', el('b', null, u.unit));
    if (u.move) li.append(' ', el('span', 'move', u.move));
    const dist = distanceText(u);
    if (dist) li.append(el('div', 'dist', dist));
    const words = (v === 'cannot_tell' || v === 'not_seen') && u.why ? u.why : u.sentence;
    if (judged) {
      li.append(el('div', 'sentence stands', `MOVE STANDS · overruled by ${judgeOf(ruling)}`));
      if (words) li.title = 'the rules said: ' + words;
    } else if (words) {
      li.append(el('div', 'sentence', words));
    }
    if (needsRoll && !overlayView) li.append(rollForm(u));
    return li;
  }

  // The roll a player declares for a unit whose rate is dice: sent as a "roll" command; the table judges the
  // move again against it (the card's submit handler, card()).
  function rollForm(u) {
    const f = el('form', 'roll'), input = Object.assign(el('input'), { type: 'number', name: 'roll', min: '0',
      max: '100', step: '0.01', required: true, placeholder: `roll of ${u.dice || 'the dice'}, inches` });
    f.dataset.unit = u.unit;
    f.append(input, ' ', el('button', null, 'Declare roll'));
    return f;
  }

  // ---- judge's grid ----

  function card(t) {
    let c = document.getElementById('table-' + t.n);
    if (c) return c;
    c = $('#card-template').content.firstElementChild.cloneNode(true);
    c.id = 'table-' + t.n;
    c.dataset.table = t.n;
    $('.num', c).textContent = t.n;
    c.querySelectorAll('.actions button').forEach((b) => {
      b.dataset.title = b.title;
      b.addEventListener('click', () => openCommand(t, b.dataset.action));
    });
    // The picture opens full size (its labels are drawn for a 1280-pixel frame).
    $('figure img', c).addEventListener('click', () => openZoom(t));
    $('form.command', c).addEventListener('submit', (e) => { e.preventDefault(); sendCommand(t); });
    $('.call', c).addEventListener('submit', (e) => {
      if (!e.target.matches('form.roll')) return;
      e.preventDefault();
      sendRoll(t, e.target.dataset.unit, Number(e.target.roll.value));
    });
    $('form.command .cancel', c).addEventListener('click', () => { $('form.command', c).hidden = true; });
    const grid = $('#grid');
    const after = [...grid.children].find((o) => Number(o.dataset.table) > t.n);
    grid.insertBefore(c, after || null);
    return c;
  }

  function openZoom(t) {
    if (!t.picture) return;
    const zoom = $('#zoom');
    $('img', zoom).src = t.picture;
    $('img', zoom).alt = $('figure img', card(t)).alt;
    $('p', zoom).textContent = `Table ${t.n}` + (t.pictureInfo ? ` after move ${t.pictureInfo.move}` : '') +
      ' · click or Esc to close';
    zoom.showModal();
  }

  function renderStatus(t, c) {
    const s = t.status;
    const online = !s || s.state !== 'offline';
    c.classList.toggle('offline', !online);
    const pill = $('.status', c);
    // Offline is grey and says so with a symbol; an alert is vermillion with another: never colour alone.
    pill.textContent = online ? 'online' : '\u25CB ' + (s.cause === 'camera' ? 'CAMERA LOST' : s.cause === 'stopped' ? 'STOPPED' : 'OFFLINE');
    pill.className = 'status pill ' + (online ? 'ok' : 'off');
    pill.title = s ? `${s.reason || ''} ${clock(t.statusSince)}`.trim() : '';
    c.dataset.status = online ? 'online' : 'offline';
    const note = $('.status-note', c);
    note.hidden = online;
    if (!online) {
      const when = offlineWhen(t);
      note.textContent = `${when ? when.text : 'offline: the table gives no time'} · ${s.reason || 'no reason given'}`;
      note.dataset.since = when ? when.since : '';
    }
    // A table that is not listening cannot take a command (it would be lost, not applied later).
    c.querySelectorAll('.actions button').forEach((b) => {
      b.disabled = !online;
      b.title = online ? b.dataset.title || b.title : 'the table is offline';
    });
  }

  function renderCall(t, c) {
    const box = $('.call', c);
    box.replaceChildren();
    if (!t.call) {
      box.append(el('p', 'quiet', t.units.length ? `${t.units.length} units on the table, no call yet` : 'no call yet'));
      return;
    }
    box.append(el('h3', null, `Move ${t.call.move}` + (t.call.wall ? ` · ${clock(t.call.wall)}` : '')));
    const ul = el('ul', 'units');
    const ruling = overallVerdict(t) === 'overruled' ? t.ruling : null;
    (t.call.units || []).forEach((u) => ul.append(unitRow(u, ruling)));
    box.append(ul);
    // The evidence clip of an ILLEGAL or CANNOT TELL call: a link where the table serves it, else its path there.
    if (t.call.clip_url) {
      const a = el('a', 'clip', `replay move ${t.call.move}`);
      a.href = t.call.clip_url;
      a.target = '_blank';
      a.rel = 'noopener';
      box.append(a);
    } else if (t.call.clip) {
      box.append(el('p', 'quiet clip-path', `clip on the table: ${t.call.clip}`));
    }
  }

  function renderJudge(t) {
    const c = card(t);
    renderStatus(t, c);
    const alert = pendingAlert(t);
    c.classList.toggle('alert', !!alert);
    c.dataset.alertMove = alert ? alert.move : '';
    const banner = $('.alert-banner', c);
    banner.hidden = !alert;
    if (alert) banner.textContent = `\u26A0 ALERT · move ${alert.move}: ${alert.sentence || alert.unit || ''}`;
    const img = $('figure img', c);
    img.hidden = !t.picture;
    if (t.picture && img.src !== t.picture) img.src = t.picture;
    img.alt = t.pictureInfo ? `Table ${t.n} after move ${t.pictureInfo.move}` : `Table ${t.n}`;
    // The hint to enlarge is the picture's title and its zoom-in cursor; the caption says which move.
    $('figcaption', c).textContent = t.picture && t.pictureInfo ? `after move ${t.pictureInfo.move}` : '';
    renderCall(t, c);
    const res = resolution(t);
    $('.resolution', c).hidden = !res;
    $('.resolution', c).textContent = res || '';
    const refused = refusedNote(t);
    $('.refused', c).hidden = !refused;
    $('.refused', c).textContent = refused || '';
    // Only a logged-in judge commands (the broker would refuse anyone else's command anyway).
    $('.actions', c).hidden = !judgeUser;
    if (!judgeUser) $('form.command', c).hidden = true;
    const lost = t.gapLost || (t.feed && t.feed.dropped) || 0;
    $('.gap', c).hidden = !lost;
    $('.gap', c).textContent = lost ? `${lost} events did not reach the broker (queue full)` : '';
    renderSent(t, c);
    applyFilter(c);
    summarize();
  }

  function applyFilter(c) {
    c.hidden = $('#alerts-only').checked && !c.classList.contains('alert') && !c.classList.contains('offline');
  }

  function summarize() {
    let alerts = 0, offline = 0;
    for (const t of tables.values()) {
      alerts += !!pendingAlert(t);
      offline += !!(t.status && t.status.state === 'offline');
    }
    $('#summary').textContent = `${tables.size} tables · ${alerts} alerts · ${offline} offline`;
  }

  // ---- judge commands ----

  function commandName(user) {
    return user.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  }

  function openCommand(t, action) {
    const c = card(t);
    const form = $('form.command', c);
    form.dataset.action = action;
    const move = action === 'undo' ? null : (pendingAlert(t) || t.call || {}).move;
    $('.what', form).textContent = action + (move ? ` move ${move}:` : ':');
    form.hidden = false;
    $('input[name=reason]', form).focus();
  }

  function sendCommand(t) {
    const c = card(t);
    const form = $('form.command', c);
    const reason = $('input[name=reason]', form).value.trim();
    const who = commandName(judgeUser);
    if (!who || !reason) return;
    const action = form.dataset.action;
    const move = action === 'undo' ? 0 : ((pendingAlert(t) || t.call || {}).move || 0);
    form.hidden = true;
    $('input[name=reason]', form).value = '';
    publish(t, who, { action, move, reason }, action);
  }

  // One command to the table (its id answers it), shown as `what` until the table says it applied it.
  function publish(t, who, command, what) {
    const id = `${who}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    t.sent = { id, who, action: what, move: command.move || 0, at: Date.now(), answer: null, error: null };
    client.publish(`${topicBase(t.n)}/command/${who}`, JSON.stringify({ ...command, id }), { qos: 1, retain: false },
      (err) => { if (err) t.sent.error = err.message; render(t); });
    render(t);
    setTimeout(() => render(t), 10000);
  }

  function sendRoll(t, unit, rollIn) {
    const who = commandName(judgeUser);
    if (who && unit && rollIn >= 0 && rollIn <= 100)
      publish(t, who, { action: 'roll', unit, roll_in: rollIn, reason: 'roll declared' }, `roll ${unit} ${rollIn}"`);
  }

  function renderSent(t, c) {
    const p = $('.sent', c);
    const s = t.sent;
    p.hidden = !s;
    if (!s) return;
    const what = `${s.action}${s.move ? ' move ' + s.move : ''}`;
    if (s.error) p.textContent = `${what}: not sent (${s.error})`;
    else if (s.answer) p.textContent = s.answer.applied === false ? `${what}: refused by the table (${s.answer.why_not || s.answer.reason || ''})` : `${what}: applied by the table`;
    else if (Date.now() - s.at > 9000) p.textContent = `${what}: no answer from the table yet (is it offline? are you logged in as a judge?)`;
    else p.textContent = `${what}: sent, waiting for the table…`;
    p.dataset.state = s.error ? 'error' : !s.answer ? 'waiting' : s.answer.applied === false ? 'refused' : 'applied';
  }

  // The streamer's overlay (overlay.js) draws with the page's own words for a call.
  const overlay = overlayView ? window.tablerefOverlay({ $, el, params, tables, metrics, overallVerdict, unitRow,
                                                       VERDICT_WORD, judgeOf, clock }) : null;

  function render(t) {
    if (overlayView) {
      if (t.n === onlyTable) overlay.render(t);
    } else {
      renderJudge(t);
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
    a.href = `?event=${encodeURIComponent(name)}` + (params.get('broker') ? `&broker=${encodeURIComponent(params.get('broker'))}` : '');
    nav.append(a);
  }

  // ---- start ----

  function start() {
    document.body.classList.toggle('overlay', overlayView);
    $('#overlay').hidden = !overlayView;
    $('#grid').hidden = overlayView;
    document.querySelectorAll('.judge-only').forEach((e) => { if (overlayView) e.hidden = true; });
    $('#event-name').textContent = eventName ? '· ' + eventName : '';
    document.title = eventName ? `tableref · ${eventName}` : 'tableref · venue';
    $('#alerts-only').addEventListener('change', () => document.querySelectorAll('.card').forEach(applyFilter));
    $('#login-open').addEventListener('click', () => { $('#login').hidden = false; $('#login-user').focus(); });
    $('#login').addEventListener('submit', (e) => {
      e.preventDefault();
      const user = $('#login-user').value.trim();
      // With the venue's ACL a judge may only command under their user name: the two are one.
      $('#login-open').textContent = user ? 'Logged in as ' + user : 'Log in';
      connect(user, $('#login-pass').value);
    });
    $('#zoom').addEventListener('click', () => $('#zoom').close());
    if (overlayView && !onlyTable) {
      $('#overlay').hidden = false;
      $('#overlay').textContent = 'view=overlay needs table=N';
      return;
    }
    if (overlayView) {
      overlay.start(connect);
    } else {
      connect();
    }
  }

  start();
})();
