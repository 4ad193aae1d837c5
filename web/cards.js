// tableref at the venue: one table's card on the judge's page (judge.js keeps the tables and calls render).
// A card says what the table says stands (its call, its alert, the judges' ruling), whether the table is
// running, not started, offline or ended, whether this page has news of it, the calls it numbered lately and
// those the page missed (an outage, a slow link) and fetched since; a judge commands from it.
'use strict';

window.tablerefCards = (lib) => {
  const { $, el, tables, VERDICT_WORD, judgeOf, clock, inches, verdictOf, pendingAlert, resolution,
          refusedNote, noNews, overallVerdict } = lib;
  // The page's own clock, HH:MM:SS on 24 hours whatever the browser's locale (the tables' times read the same).
  const pageClock = (ms) => (ms ? new Date(ms).toLocaleTimeString('en-GB', { hour12: false }) : '');

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
    if (needsRoll && !lib.overlayView) li.append(rollForm(u));
    return li;
  }

  // The roll a player declares for a unit whose rate is dice: sent as a "roll" command (the card's submit
  // handler, card()); the table judges the move again against it.
  function rollForm(u) {
    const f = el('form', 'roll'), input = Object.assign(el('input'), { type: 'number', name: 'roll', min: '0',
      max: '100', step: '0.01', required: true, placeholder: `roll of ${u.dice || 'the dice'}, inches` });
    f.dataset.unit = u.unit;
    f.append(input, ' ', el('button', null, 'Declare roll'));
    return f;
  }

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
    $('form.command', c).addEventListener('submit', (e) => {
      e.preventDefault();
      const form = $('form.command', c);
      form.hidden = true;
      lib.sendCommand(t, form.dataset.action, $('input[name=reason]', form).value.trim());
      $('input[name=reason]', form).value = '';
    });
    $('.call', c).addEventListener('submit', (e) => {
      if (!e.target.matches('form.roll')) return;
      e.preventDefault();
      lib.sendRoll(t, e.target.dataset.unit, Number(e.target.roll.value));
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

  function openCommand(t, action) {
    const form = $('form.command', card(t));
    form.dataset.action = action;
    const move = action === 'undo' ? null : (pendingAlert(t) || t.call || {}).move;
    $('.what', form).textContent = action + (move ? ` move ${move}:` : ':');
    form.hidden = false;
    $('input[name=reason]', form).focus();
  }

  // When an offline table went offline, in the table's own words: a status it sent says so (its wall); a
  // last will cannot (it was written at connection), but the table speaks at least every heartbeat_s
  // (its state), so it was offline at the latest heartbeat_s after its last word. That bound is kept
  // for machines (data-since), not shown: the will comes about 1.5 keepalives after the table's last
  // packet, long before a heartbeat is up, so "since at most" would name a time still to come.
  function offlineWhen(t) {
    const s = t.status;
    if (!s.will) {
      if (!t.statusSince) return null;
      const word = s.cause === 'stopped' ? 'watch ended at' : 'offline since';
      return { since: t.statusSince, text: `${word} ${clock(t.statusSince)}, by the table's clock` };
    }
    if (!t.lastHeard) return null;
    const heard = `offline: last heard ${clock(t.lastHeard)}, by the table's clock`;
    if (!(s.heartbeat_s > 0)) return { since: '', text: `${heard} (its will gives no heartbeat)` };
    const atMost = new Date(Date.parse(t.lastHeard) + s.heartbeat_s * 1000).toISOString();
    return { since: atMost, text: `${heard} (a running table speaks every ${s.heartbeat_s} s)` };
  }

  // online, offline (and why), or not started: a table the set-up made whose watch has not spoken yet.
  function renderStatus(t, c, news) {
    const s = t.status;
    const notStarted = !s && !t.stateSeen;
    const online = !!s ? s.state !== 'offline' : !notStarted;
    c.classList.toggle('offline', !!s && !online);
    c.classList.toggle('not-started', notStarted);
    c.classList.toggle('no-news', !!news);
    const pill = $('.status', c);
    // Offline is grey and says so with a symbol; an alert is vermillion with another: never colour alone.
    pill.textContent = notStarted ? '\u25CB NOT STARTED' : online ? 'online'
      : '\u25CB ' + (s.cause === 'camera' ? 'CAMERA LOST' : s.cause === 'stopped' ? 'STOPPED' : 'OFFLINE');
    pill.className = 'status pill ' + (online ? 'ok' : 'off');
    pill.title = s ? `${s.reason || ''} ${clock(t.statusSince)}`.trim() : '';
    c.dataset.status = notStarted ? 'not_started' : online ? 'online' : 'offline';
    const note = $('.status-note', c);
    note.hidden = online && !notStarted;
    if (notStarted) {
      note.textContent = 'not started: this table\'s watch has not connected yet';
      note.dataset.since = '';
    } else if (!online) {
      const when = offlineWhen(t);
      note.textContent = `${when ? when.text : 'offline: the table gives no time'} · ${s.reason || 'no reason given'}`;
      note.dataset.since = when ? when.since : '';
    }
    const newsNote = $('.news', c);
    newsNote.hidden = !news;
    newsNote.textContent = news ? `no news since ${pageClock(news.since)}: ${news.why}` : '';
    newsNote.dataset.since = news ? new Date(news.since).toISOString() : '';
    return { online: online && !notStarted && !news, offline: !!s && !online };
  }

  // The buttons: a command only to a table that listens and of which the page has news; a settle only to an
  // offline table with an alert standing (its watch ended: no table will apply a command).
  function renderActions(t, c, st) {
    const alert = pendingAlert(t);
    c.querySelectorAll('.actions button').forEach((b) => {
      const settle = b.dataset.action === 'settle';
      b.hidden = settle && !(st.offline && alert);
      b.disabled = settle ? !lib.connected() : !st.online;
      b.title = b.disabled ? (settle ? 'no news: the broker is unreachable' : 'the table is not listening (offline, not started, or no news)')
                           : b.dataset.title || b.title;
    });
    $('.actions', c).hidden = !lib.judge();
    if (!lib.judge()) $('form.command', c).hidden = true;
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

  function callWords(k) {
    if (k.kind === 'alert') return `ALERT move ${k.move}${k.unit ? ': ' + k.unit : ''}`;
    if (k.kind === 'correction') return `${k.action} move ${k.move || 'latest'} by ${(k.by || '').replace(/^mqtt:/, '')}` +
      (k.applied === false ? ' (refused)' : '');
    return `move ${k.move}: ${k.legal === false ? 'ILLEGAL' : 'called'}`;
  }

  // The table's numbered calls the page has (the last six), and those it missed: when and which.
  function renderCalls(t, c) {
    const gap = $('.gap-note', c);
    const m = t.missed;
    gap.hidden = !m;
    if (m) {
      const have = m.numbers.filter((k) => t.calls.has(k)).length;
      const when = m.lostAt ? ` while this page had no news (${pageClock(m.lostAt)} to ${pageClock(m.backAt)})` : '';
      gap.textContent = `${m.numbers.length} call${m.numbers.length === 1 ? '' : 's'} made${when} reached this page late: ` +
        m.numbers.map((k) => '#' + k).join(', ') + (have < m.numbers.length ? ` (fetching ${m.numbers.length - have})` : '');
      gap.dataset.calls = m.numbers.join(',');
    }
    const ul = $('.calls', c);
    const nos = [...t.calls.keys()].sort((a, b) => a - b).slice(-6);
    ul.hidden = !nos.length;
    ul.replaceChildren(...nos.map((no) => {
      const k = t.calls.get(no);
      const li = el('li', m && m.numbers.includes(no) ? 'late' : '', `#${no} ${callWords(k)}`);
      li.dataset.callNo = no;
      li.dataset.how = k.how;
      return li;
    }));
  }

  function renderSent(t, c) {
    const p = $('.sent', c);
    const s = t.sent;
    p.hidden = !s;
    if (!s) return;
    const what = `${s.action}${s.move ? ' move ' + s.move : ''}`;
    if (s.error) p.textContent = `${what}: not sent (${s.error})`;
    else if (s.answer && s.answer.settled) p.textContent = `${what}: kept by the broker for every judge's page`;
    else if (s.answer) p.textContent = s.answer.applied === false ? `${what}: refused by the table (${s.answer.why_not || s.answer.reason || ''})` : `${what}: applied by the table`;
    else if (Date.now() - s.at > 9000) p.textContent = `${what}: no answer from the table yet (is it offline? are you logged in as a judge?)`;
    else p.textContent = `${what}: sent, waiting for the table…`;
    p.dataset.state = s.error ? 'error' : !s.answer ? 'waiting' : s.answer.applied === false ? 'refused' : 'applied';
  }

  function render(t) {
    const c = card(t);
    const st = renderStatus(t, c, noNews(t));
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
    renderCalls(t, c);
    const res = resolution(t);
    $('.resolution', c).hidden = !res;
    $('.resolution', c).textContent = res || '';
    const refused = refusedNote(t);
    $('.refused', c).hidden = !refused;
    $('.refused', c).textContent = refused || '';
    renderActions(t, c, st);
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
    let alerts = 0, offline = 0, waiting = 0;
    for (const t of tables.values()) {
      alerts += !!pendingAlert(t);
      offline += !!(t.status && t.status.state === 'offline');
      waiting += !t.status && !t.stateSeen;
    }
    $('#summary').textContent = `${tables.size} tables · ${alerts} alerts · ${offline} offline` +
      (waiting ? ` · ${waiting} not started` : '');
  }

  return { render, unitRow, applyFilter };
};
