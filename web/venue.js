// tableref at the venue: the page's one connection to its venue's broker (web/judge.js uses it).
//   - The broker is the one venue.json names (written beside the page by `tableref venue setup`), else the
//     server the page came from. Any other broker= is refused before a password can be typed: a page that
//     sent a judge's password wherever its address pointed would hand it to anyone who sends a link.
//   - A judge's session is kept by the broker while the page is away (clean: false, a client id of this
//     browser's own, kept in localStorage): what came meanwhile is delivered when it is back.
//   - A judge's login is checked with the broker (only a judge may write and read check/command/NAME), and
//     two logins with one account learn of each other there (docs/formats.md).
//   - Each table numbers its calls (call_no, per run): a page that misses some (an outage, a queue that
//     overflowed) fetches them, retained, from call/N.
// Docs: docs/web.md.
'use strict';

window.tablerefVenue = (hooks) => {
  const { params, eventName, onlyTable, overlayView } = hooks;
  const rnd = () => Math.random().toString(16).slice(2, 10) + Math.random().toString(16).slice(2, 10);
  const conn = { client: null, user: '', venue: null, broker: '', refused: '', lostAt: null, everConnected: false,
                 nonce: rnd(), check: null, fetching: new Map() };
  const MAX_FETCHES = 64;

  // ---- which broker ----

  function brokerOf(venue) {
    if (venue && venue.broker && Number.isInteger(venue.broker.ws_port)) {
      const host = location.hostname.includes(':') && !location.hostname.startsWith('[') ? `[${location.hostname}]`
                                                                                        : location.hostname;
      return (venue.broker.tls ? 'wss://' : 'ws://') + host + ':' + venue.broker.ws_port + '/';
    }
    if (location.protocol === 'http:' || location.protocol === 'https:') {
      return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
    }
    return 'ws://127.0.0.1:9001/'; // a page opened from a file: a broker on this machine
  }

  function normal(url) {
    try {
      const u = new URL(url);
      if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return null;
      return `${u.protocol}//${u.host}${u.pathname || '/'}`;
    } catch (e) {
      return null;
    }
  }

  // The venue's own description (venue.json beside the page), then the broker: the configured one, or a
  // broker= that names the same. Returns { venue, broker, refused }.
  let configured = null;
  function configure() {
    if (!configured) configured = configureOnce();
    return configured;
  }

  async function configureOnce() {
    try {
      const r = await fetch('venue.json', { cache: 'no-store' });
      if (r.ok) conn.venue = await r.json();
    } catch (e) {
      conn.venue = null; // no venue.json (a page served by hand): the page's own server only
    }
    const allowed = brokerOf(conn.venue);
    const asked = params.get('broker');
    if (asked && normal(asked) !== normal(allowed)) {
      conn.refused = `This page talks only to its venue's broker (${allowed}). broker=${asked} is refused: ` +
        'no connection is made and no password is sent.';
      return conn;
    }
    conn.broker = allowed;
    return conn;
  }

  // ---- the connection ----

  // A judge's session lives on the broker between visits: one client id per account in this browser.
  function clientId(user) {
    const key = `tableref.client.${eventName}.${user}`;
    let id = null;
    try { id = localStorage.getItem(key); } catch (e) { id = null; }
    if (!id) {
      id = `judge-${user.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32)}-${rnd()}`;
      try { localStorage.setItem(key, id); } catch (e) { /* private browsing: a new session each visit */ }
    }
    return id;
  }

  function topicBase(n) {
    return `tableref/${eventName}/table/${n}`;
  }

  // What a page takes: the tables' status, state and events at QoS 1 (queued for it while it is away), the
  // pictures at QoS 0 (never queued: the next one replaces a missed one), a judge's notes (settle, login).
  function subscriptions() {
    if (!eventName) return { 'tableref/+/table/+/status': { qos: 1 } };
    const t = onlyTable ? topicBase(onlyTable) : `tableref/${eventName}/table/+`;
    const subs = { [`${t}/status`]: { qos: 1 }, [`${t}/state`]: { qos: 1 }, [`${t}/event/#`]: { qos: 1 },
                   [`${t}/picture`]: { qos: 0 } };
    if (conn.user && !overlayView) subs[`tableref/${eventName}/table/+/command/+`] = { qos: 1 };
    return subs;
  }

  // Connects once the broker is known (a login typed while venue.json is being read waits for it). The latest
  // request wins, except that the page's own anonymous connection never replaces a login asked for (a judge who
  // logs in before venue.json arrived was otherwise connected, then replaced by the anonymous page).
  let wanted = null;
  function connect(user, password) {
    const request = { user };
    if (user || !wanted || !wanted.user) wanted = request;
    return configure().then(() => { if (wanted === request) connectNow(user, password); });
  }

  function connectNow(user, password) {
    if (!conn.broker) return;
    if (conn.client) conn.client.end(true);
    conn.user = user || '';
    conn.check = null;
    const judgeSession = !!user && !overlayView;
    const opts = {
      clientId: judgeSession ? clientId(user) : (overlayView ? 'overlay-' : 'page-') + rnd(),
      clean: !judgeSession,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
      protocolVersion: 4,
    };
    if (user) {
      opts.username = user;
      opts.password = password || '';
    }
    const client = mqtt.connect(conn.broker, opts);
    conn.client = client;
    client.on('connect', () => {
      conn.everConnected = true;
      const lost = conn.lostAt;
      conn.lostAt = null;
      // Subscribing again on every connection makes the broker send the retained status and state again, also
      // when it kept the session: the page then knows each table's latest call number.
      client.subscribe(subscriptions());
      hooks.onConnect(lost);
      if (user && !overlayView && eventName) sendCheck();
    });
    const down = (text, cls) => {
      if (!conn.lostAt && conn.everConnected) conn.lostAt = Date.now();
      hooks.onLink(text, cls);
    };
    client.on('reconnect', () => down('reconnecting…', 'warn'));
    client.on('offline', () => down('broker unreachable', 'bad'));
    client.on('close', () => down('broker unreachable', 'bad'));
    client.on('error', (err) => {
      hooks.onLink('broker: ' + err.message, 'bad');
      if (/auth|credential|identifier|password/i.test(err.message)) {
        client.end(true);
        hooks.onRefusedLogin();
      }
    });
    client.on('message', (topic, payload, packet) => {
      if (note(topic, payload)) return;
      const fetched = fetchedCall(topic);
      hooks.onMessage(fetched ? fetched.topic : topic, payload, { fetched: !!fetched, retained: !!packet.retain });
    });
  }

  function publish(topic, body, opts, done) {
    if (!conn.client) return done && done(new Error('not connected'));
    conn.client.publish(topic, body, opts, done);
  }

  // ---- the judge check and the other logins of this account ----

  // Only the set-up's judges may write and read check/command/NAME (docs/venue.md): the check coming back says
  // this account is a judge's. The same topic carries a note at each login, so that two logins with one
  // account each say so (a note from another page is answered once).
  function sendCheck() {
    conn.check = { nonce: rnd(), topic: `${topicBase('check')}/command/${hooks.commandName(conn.user)}` };
    publish(conn.check.topic, JSON.stringify({ format: 'tableref.venue.judge_check', nonce: conn.check.nonce }), { qos: 1 });
    loginNote(false);
  }

  function loginNote(reply) {
    publish(conn.check.topic, JSON.stringify({ format: 'tableref.venue.login', page: conn.nonce, reply,
                                               wall: new Date().toISOString() }), { qos: 1 });
  }

  function note(topic, payload) {
    if (!conn.check || topic !== conn.check.topic) return false;
    let msg = null;
    try { msg = JSON.parse(new TextDecoder().decode(payload)); } catch (e) { msg = null; }
    if (!msg) return true;
    if (msg.format === 'tableref.venue.judge_check' && msg.nonce === conn.check.nonce) hooks.onJudge(conn.user);
    if (msg.format === 'tableref.venue.login' && msg.page !== conn.nonce) {
      hooks.onElsewhere(conn.user, msg.wall);
      if (!msg.reply) loginNote(true);
    }
    return true;
  }

  // ---- numbered calls: fetch what was missed ----

  // A retained call/N comes back on its own topic: it is read as the event it is.
  function fetchedCall(topic) {
    const f = conn.fetching.get(topic);
    if (!f) return null;
    conn.fetching.delete(topic);
    conn.client.unsubscribe(topic);
    return { topic: `${topicBase(f.table)}/event/fetched` };
  }

  // Asks the broker for table n's calls `numbers` (each retained on call/N), in order. A call the broker no
  // longer has (expired after a day) never comes: its request is given up after 10 s.
  function fetchCalls(n, numbers) {
    const now = Date.now();
    for (const [topic, f] of conn.fetching) {
      if (now - f.at > 10000 && conn.client) {
        conn.fetching.delete(topic);
        conn.client.unsubscribe(topic);
      }
    }
    for (const no of numbers) {
      const topic = `${topicBase(n)}/call/${no}`;
      if (conn.fetching.has(topic) || conn.fetching.size >= MAX_FETCHES || !conn.client) continue;
      conn.fetching.set(topic, { table: n, no, at: Date.now() });
      conn.client.subscribe(topic, { qos: 1 });
    }
  }

  return { conn, configure, connect, publish, fetchCalls, topicBase };
};
