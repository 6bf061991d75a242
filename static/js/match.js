// The table page: one match, played (with a stored seat secret) or watched.
// It owns the socket and page chrome; the game module renders the view it is given
// and emits intents. The view is replaced whole by each `state` frame.

import * as api from "./api.js";
import { TurnClock } from "./clock.js";
import { h, replaceContent } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
import { outcomeBox } from "./outcome.js";
import { replayPanel } from "./replay.js";
import { gameTitle, openSeats, playerList, seatLabel, spectatorCount } from "./players.js";
import { displayName, forgetSeat, rememberDisplayName, rememberSeat, seatFor } from "./seats.js";
import { MatchSocket } from "./socket.js";

const LOG_LIMIT = 1000;

async function loadGameModule(game) {
  if (!/^[a-z0-9_]+$/.test(game)) return import("./games/fallback.js");
  try {
    return await import(`./games/${game}.js`);
  } catch {
    return import("./games/fallback.js");
  }
}

export function mountMatch(root, matchId) {
  const page = {
    summary: null,
    seat: seatFor(matchId),
    welcome: null,
    view: null,
    version: null,
    log: [],
    logged: new Set(),
    presence: null,
    pending: [],
    errors: [],
    status: "connecting",
    everOpen: false,
    game: null,
    loadError: null,
    outcomeSeen: false,
    replay: null, // {entries, at} once a finished match's complete log is loaded
  };
  let socket = null;
  let stopped = false;
  const banner = document.getElementById("offline-banner");

  const chrome = h("div", { class: "match-chrome" });
  const gameRoot = h("div", { class: "game-root" });
  const logRoot = h("section", { class: "panel event-log", "aria-labelledby": "log-title" });
  const outcomeRoot = h("div", { class: "outcome-root" });
  const replayRoot = h("div", { class: "replay-root" });
  const turnClock = new TurnClock(); // shown only while a clock frame holds a deadline
  // The countdown sits above the table and stays in sight while the table scrolls.
  const tableColumn = h("div", { class: "table-column" }, turnClock.el, gameRoot);
  root.replaceChildren(h("div", { class: "match-page" }, chrome, outcomeRoot, replayRoot, tableColumn, logRoot));

  function emit(action) {
    if (!socket || !page.seat) return;
    if (page.pending.length) return; // one decision at a time: wait for the ack
    page.errors = [];
    socket.act(action);
  }

  function describe(event) {
    if (page.game?.describeEvent) return page.game.describeEvent(event, page.view);
    return t(`events.${event.type}`, event, event.type);
  }

  function addEvents(events, version) {
    if (events?.length) page.logged.add(version);
    for (const event of events || []) page.log.push({ version, event });
    if (page.log.length > LOG_LIMIT) page.log.splice(0, page.log.length - LOG_LIMIT);
  }

  /** On opening a match midway: the public log so far (spectator-redacted while live). */
  async function loadHistory() {
    try {
      const history = await api.getLog(matchId);
      const earlier = [];
      for (const entry of history.entries || []) {
        if (page.logged.has(entry.seq)) continue;
        page.logged.add(entry.seq);
        for (const event of entry.events || []) earlier.push({ version: entry.seq, event });
      }
      page.log = [...earlier, ...page.log].sort((a, b) => a.version - b.version).slice(-LOG_LIMIT);
      if (history.redacted === false) page.replay = { entries: history.entries || [], at: 0 };
      drawLog();
      drawReplay();
    } catch {
      // the history is a convenience; the table itself is complete without it
    }
  }

  function connect() {
    socket = new MatchSocket(matchId, page.seat?.secret, {
      onWelcome(frame) {
        page.welcome = frame;
        if (frame.match) page.summary = { ...(page.summary || {}), ...frame.match };
        if (page.seat && frame.seat && frame.seat !== page.seat.seat) rememberSeat(matchId, frame.seat, page.seat.secret);
        if (frame.match) page.presence = { status: frame.match.status, seats: frame.match.seats, spectators: frame.match.spectators };
        drawChrome();
      },
      onState(frame, { gap, resync }) {
        const first = page.version === null;
        if (!page.logged.has(frame.version)) addEvents(frame.events, frame.version);
        if (resync && gap) page.log.push({ version: frame.version, event: { type: "_resync" } });
        if (first && frame.version > 0) loadHistory();
        page.view = frame.view;
        page.version = frame.version;
        drawAll();
      },
      onAck() { drawChrome(); },
      onError(frame) {
        if (frame.code === "not_authorized" && !frame.id && page.seat) {
          // A stale secret: watch instead of failing.
          forgetSeat(matchId);
          page.seat = null;
          socket.stop();
          connect();
        }
        page.errors = [frame, ...page.errors].slice(0, 3);
        drawChrome();
      },
      onPresence(frame) {
        page.presence = frame;
        const finishedNow = frame.status && page.summary && frame.status !== page.summary.status;
        if (page.summary) page.summary = { ...page.summary, status: frame.status ?? page.summary.status, seats: frame.seats ?? page.summary.seats, spectators: frame.spectators };
        if (finishedNow) refreshSummary();
        else drawChrome();
      },
      onClock(frame) {
        turnClock.receive(frame);
      },
      onPending(list) {
        page.pending = list;
        drawChrome();
        drawGame();
      },
      onStatus(status, everOpen) {
        page.status = status;
        page.everOpen = everOpen;
        drawBanner();
        drawChrome();
      },
    });
    socket.start();
  }

  function drawBanner() {
    const offline = page.status === "offline" || (page.status === "closed" && page.everOpen);
    banner.hidden = !offline;
    banner.textContent = offline ? t("match.offline") : "";
  }

  async function join(seat) {
    try {
      const got = await api.joinMatch(matchId, { name: displayName() || null, seat });
      rememberSeat(matchId, got.seat, got.secret);
      page.seat = { seat: got.seat, secret: got.secret };
      socket.stop();
      page.log = [];
      page.logged = new Set();
      page.version = null;
      connect();
      refreshSummary();
    } catch (err) {
      page.errors = [{ code: err.code, message: err.message }];
      drawChrome();
    }
  }

  function inviteLink() {
    return `${location.origin}${location.pathname}#/match/${encodeURIComponent(matchId)}`;
  }

  async function copyInvite(button) {
    const link = inviteLink();
    try {
      await navigator.clipboard.writeText(link);
      button.textContent = t("match.copied");
    } catch {
      const input = document.getElementById("invite-link");
      input?.select();
      button.textContent = t("match.copy_manually");
    }
  }

  function drawChrome() {
    if (stopped) return;
    const game = page.summary?.game || page.welcome?.match?.game;
    const myTurn = page.seat && page.view?.legal_actions?.length > 0;
    document.title = `${myTurn ? "● " : ""}${game ? gameTitle(game) : t("match.title")} · ${t("app.title")}`;
    const role = page.seat ? t("match.playing_as", { seat: seatLabel(page.seat.seat) }) : t("match.spectating");
    const open = openSeats(page.summary, page.presence);
    const invite = page.seat && open.length
      ? h("section", { class: "panel invite", "aria-labelledby": "invite-title" },
        h("h2", { id: "invite-title" }, t("match.invite_title")),
        h("p", {}, t("match.invite_text")),
        h("div", { class: "invite-row" },
          h("input", { id: "invite-link", type: "text", readonly: true, value: inviteLink(), "aria-label": t("match.invite_title") }),
          h("button", { type: "button", "data-focus-key": "copy-invite", onclick: (e) => copyInvite(e.currentTarget) }, t("match.copy_link"))))
      : null;
    const joinBox = !page.seat && open.length
      ? h("section", { class: "panel join", "aria-label": t("lobby.join_title") },
        h("label", { class: "field" }, t("lobby.display_name"),
          h("input", {
            type: "text", name: "name", maxlength: 40, value: displayName(), autocomplete: "nickname",
            "data-focus-key": "join-name", oninput: (e) => rememberDisplayName(e.target.value.trim()),
          })),
        h("div", { class: "match-row-actions" }, open.map((s) => h("button", {
          type: "button", class: "primary", "data-focus-key": `join-${s.seat}`, onclick: () => join(s.seat),
        }, t("lobby.join_as", { seat: seatLabel(s.seat) })))))
      : null;
    const waiting = page.summary?.status === "lobby" && page.seat
      ? h("p", { class: "waiting-opponent", role: "status" }, t("match.waiting_for_opponent")) : null;
    const pending = page.pending.length
      ? h("p", { class: "pending", role: "status" }, t("match.pending")) : null;
    const errors = page.errors.length
      ? h("div", { class: "errors", role: "alert" }, page.errors.map((e) => h("p", { class: "message error" },
        t(`errors.${e.code}`, {}, e.message || e.code))))
      : null;
    replaceContent(chrome,
      h("div", { class: "match-header" },
        h("h1", { class: "page-title" }, game ? gameTitle(game) : t("match.title")),
        h("p", { class: "role", dataset: { role: page.seat ? page.seat.seat : "spectator" } }, role),
        h("p", { class: "watchers", "aria-live": "polite" }, t("match.watchers", { n: spectatorCount(page.presence, page.summary) })),
        h("p", { class: `conn conn-${page.status}` }, t(`match.status_${page.status}`))),
      playerList(page.summary, page.presence, page.seat?.seat), waiting, invite, joinBox, pending, errors,
      page.loadError ? h("p", { class: "message error", role: "alert" }, page.loadError) : null);
    drawClock();
  }

  /** The countdown follows the table: its version, whose decision, whether it is over. */
  function drawClock() {
    const status = page.presence?.status ?? page.summary?.status;
    const over = ["finished", "abandoned"].includes(status) || Boolean(page.view?.outcome);
    const mine = Boolean(page.seat && page.view?.legal_actions?.length) && status === "active";
    turnClock.update({ version: page.version, mine, over });
  }

  function drawGame() {
    if (stopped) return;
    if (!page.view) {
      replaceContent(gameRoot, h("p", { class: "loading" }, t("match.waiting_for_state")));
      return;
    }
    if (!page.game) return;
    const interactive = page.seat && page.pending.length === 0 ? emit : null;
    // A match ended by the platform (a forfeit on time) keeps the engine's last view: show
    // it without the questions the server would now refuse.
    const over = ["finished", "abandoned"].includes(page.summary?.status) && !page.view.outcome;
    const view = over ? { ...page.view, legal_actions: [], prompt: null } : page.view;
    page.game.render(gameRoot, view, interactive && !over ? emit : () => {});
    gameRoot.classList.toggle("is-pending", page.pending.length > 0);
    gameRoot.dataset.version = String(page.version);
    gameRoot.dataset.pending = String(page.pending.length);
  }

  function drawLog() {
    if (stopped) return;
    const items = page.log.slice().reverse().map(({ version, event }) =>
      h("li", { dataset: { type: event.type, version } },
        event.type === "_resync" ? t("match.resynced") : describe(event)));
    replaceContent(logRoot,
      h("h2", { id: "log-title" }, t("match.log_title")),
      items.length ? h("ol", { class: "log-list", reversed: true }, items) : h("p", { class: "empty" }, t("match.log_empty")));
  }

  function drawOutcome() {
    const outcome = page.view?.outcome || page.summary?.outcome;
    if (!outcome) {
      outcomeRoot.replaceChildren();
      return;
    }
    const box = outcomeBox(outcome, page.seat?.seat || null);
    replaceContent(outcomeRoot, box);
    if (!page.outcomeSeen) {
      page.outcomeSeen = true;
      box.focus({ preventScroll: false });
    }
  }

  function drawReplay() {
    if (stopped || !page.replay) return;
    const go = (at) => { page.replay.at = at; drawReplay(); };
    replaceContent(replayRoot, replayPanel(page.replay.entries, page.replay.at, describe, go));
  }

  function drawAll() {
    drawChrome();
    drawOutcome();
    drawGame();
    drawLog();
    drawReplay();
  }

  async function refreshSummary() {
    try {
      page.summary = await api.getMatch(matchId);
      if (!page.game && page.summary.game) {
        page.game = await loadGameModule(page.summary.game);
      }
    } catch (err) {
      page.loadError = err.status === 404 ? t("errors.match_not_found") : t("match.load_failed", { message: err.message });
    }
    if (!stopped) drawAll();
  }

  drawAll();
  refreshSummary().then(() => { if (!stopped && !page.loadError) connect(); });
  const offLang = onLanguageChange(() => { drawAll(); drawBanner(); });

  return () => {
    stopped = true;
    offLang();
    socket?.stop();
    turnClock.stop();
    banner.hidden = true;
  };
}
