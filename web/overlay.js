// tableref at the venue: the streamer's overlay for one table (index.html?view=overlay&table=N),
// for an OBS browser source. The table's own picture fills the frame: the table draws the call on
// the units themselves, as its projector does, so the overlay shows that picture large and puts the
// card (the verdict, the move, each unit's distances) beside it, never a text card alone.
//
//   user=NAME&pass=PASSWORD   a read-only streamer account (else a small form asks, if the broker
//                             refuses anonymous readers; without either the public read-only path)
//   delay=SECONDS             hold every message back that long (judge.js does the holding)
//
// Loaded before judge.js, which calls window.tablerefOverlay with its helpers.
'use strict';

window.tablerefOverlay = (lib) => {
  const { $, el, params, overallVerdict, unitRow, VERDICT_WORD, judgeOf } = lib;
  let pictureUrl = null;

  function renderPicture(t) {
    const img = $('#ov-picture');
    img.hidden = !t.picture;
    if (t.picture && pictureUrl !== t.picture) {
      img.src = t.picture;
      pictureUrl = t.picture;
    }
    img.alt = t.pictureInfo ? `Table ${t.n} after move ${t.pictureInfo.move}` : `Table ${t.n}`;
    img.dataset.move = t.pictureInfo ? t.pictureInfo.move : '';
  }

  function renderCard(t) {
    const box = $('#ov-card');
    box.replaceChildren();
    if (t.status && t.status.state === 'offline') box.append(el('div', 'ov-offline', `Table ${t.n} offline`));
    const v = overallVerdict(t);
    box.hidden = !v && !box.firstChild;
    if (!v) return;
    const words = { overruled: 'JUDGE: MOVE STANDS', ...VERDICT_WORD };
    const banner = el('div', 'ov-banner v-' + v, words[v]);
    banner.dataset.verdict = v;
    box.append(banner);
    const c = t.ruling;
    if (c && c.move === t.call.move && c.action === 'confirm') {
      box.append(el('div', 'ov-judge', `ILLEGAL confirmed by the judge (${judgeOf(c)})`));
    }
    box.append(el('div', 'ov-move', `Table ${t.n} · move ${t.call.move}`));
    const ul = el('ul', 'ov-units');
    (t.call.units || []).forEach((u) => ul.append(unitRow(u, v === 'overruled' ? t.ruling : null)));
    box.append(ul);
  }

  function render(t) {
    renderPicture(t);
    renderCard(t);
  }

  // connect(user, password): judge.js's connection, read only for a streamer.
  function start(connect) {
    const delay = Number(params.get('delay')) || 0;
    $('#ov-delay').hidden = !(delay > 0);
    $('#ov-delay').textContent = `delayed ${delay} s`;
    $('#ov-login').addEventListener('submit', (e) => {
      e.preventDefault();
      $('#ov-login').hidden = true;
      connect($('#ov-user').value.trim(), $('#ov-pass').value);
    });
    if (params.get('user')) connect(params.get('user'), params.get('pass') || '');
    else connect();
  }

  return { render, start };
};
