// The lobby: create a match, join open ones, watch live ones, view finished ones.

import * as api from "./api.js";
import { h, replaceContent } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
import { gameTitle, playerName, seatLabel, seatsOf, seatTaken } from "./players.js";
import { displayName, rememberDisplayName, rememberSeat, seatFor } from "./seats.js";

const REFRESH_MS = 5000;
/** Turn timer choices in seconds ("" = none): the `clock.turn_seconds` of the create call. */
const TURN_TIMERS = ["", "30", "60", "120", "300"];

function timerLabel(seconds) {
  if (!seconds) return t("lobby.turn_timer_none");
  const n = Number(seconds);
  return n % 60 === 0 && n >= 120 ? t("lobby.turn_timer_minutes", { n: n / 60 }) : t("lobby.turn_timer_seconds", { n });
}

/** Group the lobby answer into {open, live, finished}, whatever shape the server uses. */
export function groupMatches(data) {
  if (data && !Array.isArray(data) && (data.open || data.live || data.finished)) {
    return { open: data.open || [], live: data.live || [], finished: data.finished || [] };
  }
  const list = Array.isArray(data) ? data : data?.matches || [];
  const groups = { open: [], live: [], finished: [] };
  for (const m of list) {
    const status = m.status || m.state;
    if (status === "open" || status === "waiting") groups.open.push(m);
    else if (status === "finished" || status === "abandoned") groups.finished.push(m);
    else groups.live.push(m);
  }
  return groups;
}

export function matchId(m) {
  return m.id ?? m.match_id;
}

export function mountLobby(root) {
  let games = [];
  let groups = { open: [], live: [], finished: [] };
  let message = null;
  let stopped = false;
  let timer = null;
  const form = {
    game: "invaders", seat: "random", name: displayName(), bot: "", turnSeconds: "", inPlay: null,
  };

  async function refresh() {
    try {
      groups = groupMatches(await api.listMatches());
      message = null;
    } catch (err) {
      message = { kind: "error", text: t("lobby.load_failed", { message: err.message }) };
    }
    if (!stopped) drawLists();
  }

  async function loadGames() {
    try {
      const data = await api.listGames();
      games = Array.isArray(data) ? data : data.games || [];
      if (games.length && !games.some((g) => (g.name ?? g.id) === form.game)) form.game = games[0].name ?? games[0].id;
    } catch {
      games = [];
    }
    if (!stopped) draw();
  }

  async function create(event) {
    event.preventDefault();
    rememberDisplayName(form.name);
    try {
      const clock = form.turnSeconds ? { turn_seconds: Number(form.turnSeconds) } : null;
      const choice = gameOf(form.game)?.seat_option;
      const options = choice && form.inPlay ? { [choice.key]: form.inPlay } : {};
      const made = await api.createMatch({
        game: form.game, options, seat: form.seat, name: form.name || null, bot: form.bot || null, clock,
      });
      const id = made.match_id ?? made.id ?? made.match?.id;
      rememberSeat(id, made.seat, made.secret);
      location.hash = `#/match/${encodeURIComponent(id)}`;
    } catch (err) {
      message = { kind: "error", text: t("lobby.create_failed", { message: err.message }) };
      draw();
    }
  }

  async function join(m, seat) {
    rememberDisplayName(form.name);
    const id = matchId(m);
    try {
      const got = await api.joinMatch(id, { name: form.name || null, seat });
      rememberSeat(id, got.seat, got.secret);
      location.hash = `#/match/${encodeURIComponent(id)}`;
    } catch (err) {
      message = { kind: "error", text: t("lobby.join_failed", { message: err.message }) };
      refresh();
    }
  }

  function seatRadio(value) {
    return h("label", { class: "radio" },
      h("input", {
        type: "radio", name: "seat", value, checked: form.seat === value,
        "data-focus-key": `seat-${value}`,
        onchange: () => { form.seat = value; },
      }),
      " ", value === "random" ? t("lobby.seat_random") : seatLabel(value));
  }

  function gameOf(name) {
    return games.find((g) => (g.name ?? g.id) === name);
  }

  /** The seats the new match will fill: the creator's choice where the game allows one. */
  function seatsOfGame(name) {
    const game = gameOf(name);
    if (game?.seat_option && form.inPlay) return form.inPlay;
    const seats = game?.default_seats?.length ? game.default_seats : game?.seats;
    return seats?.length ? seats : ["mankind", "invader"];
  }

  /** Which seats play, for games whose options list them (`seat_option`, e.g. Dune factions). */
  function seatsInPlayChoice() {
    const game = gameOf(form.game);
    const choice = game?.seat_option;
    if (!choice) return null;
    if (!form.inPlay || !form.inPlay.every((s) => game.seats.includes(s))) form.inPlay = [...game.default_seats];
    const toggle = (seat, on) => {
      const next = on ? game.seats.filter((s) => s === seat || form.inPlay.includes(s)) : form.inPlay.filter((s) => s !== seat);
      if (next.length >= choice.min && next.length <= choice.max) form.inPlay = next;
      draw();
    };
    return h("fieldset", { class: "seats-in-play" },
      h("legend", {}, t("lobby.seats_in_play", { min: choice.min, max: choice.max })),
      game.seats.map((seat) => h("label", { class: "check" },
        h("input", {
          type: "checkbox", name: "in_play", value: seat, checked: form.inPlay.includes(seat),
          "data-focus-key": `in-play-${seat}`,
          onchange: (e) => toggle(seat, e.target.checked),
        }), " ", seatLabel(seat))));
  }

  /** Against a person (invite link) or, when the server lists bot levels for the game, the computer. */
  function opponentChoice() {
    const levels = games.find((g) => (g.name ?? g.id) === form.game)?.bots || [];
    if (!levels.length) return null;
    if (form.bot && !levels.includes(form.bot)) form.bot = "";
    return h("label", { class: "field" }, t("lobby.opponent"),
      h("select", { name: "bot", "data-focus-key": "bot", onchange: (e) => { form.bot = e.target.value; } },
        h("option", { value: "", selected: !form.bot }, t("lobby.opponent_person")),
        levels.map((level) => h("option", { value: level, selected: form.bot === level }, t("lobby.opponent_bot", { level: t(`bots.${level}`, {}, level) })))));
  }

  function createForm() {
    if (form.seat !== "random" && !seatsOfGame(form.game).includes(form.seat)) form.seat = "random";
    const gameOptions = (games.length ? games : [{ name: "invaders" }]).map((g) => {
      const name = g.name ?? g.id;
      return h("option", { value: name, selected: name === form.game }, t(`games.${name}`, {}, g.title || name));
    });
    return h("section", { class: "panel create-match", "aria-labelledby": "create-title" },
      h("h2", { id: "create-title" }, t("lobby.create_title")),
      h("form", { onsubmit: create },
        h("label", { class: "field" }, t("lobby.display_name"),
          h("input", {
            type: "text", name: "name", maxlength: 40, value: form.name, autocomplete: "nickname",
            "data-focus-key": "name",
            oninput: (e) => { form.name = e.target.value; },
          })),
        h("label", { class: "field" }, t("lobby.game"),
          h("select", { name: "game", "data-focus-key": "game", onchange: (e) => { form.game = e.target.value; form.inPlay = null; draw(); } }, gameOptions)),
        seatsInPlayChoice(),
        h("fieldset", { class: "seat-choice" },
          h("legend", {}, t("lobby.play_as")),
          seatsOfGame(form.game).map(seatRadio), seatRadio("random")),
        opponentChoice(),
        h("label", { class: "field" }, t("lobby.turn_timer"),
          h("select", {
            name: "turn_seconds", "data-focus-key": "turn-timer", "aria-describedby": "turn-timer-hint",
            onchange: (e) => { form.turnSeconds = e.target.value; },
          }, TURN_TIMERS.map((value) => h("option", { value, selected: form.turnSeconds === value }, timerLabel(value)))),
          h("span", { id: "turn-timer-hint", class: "field-hint" }, t("lobby.turn_timer_hint"))),
        h("button", { type: "submit", class: "primary", "data-focus-key": "create" }, t("lobby.create"))));
  }

  function players(m) {
    return seatsOf(m).map((s) => h("span", { class: "player-chip" }, `${seatLabel(s.seat)}: `, playerName(s)));
  }

  function matchRow(m, kind) {
    const id = matchId(m);
    const actions = [];
    const mine = seatFor(id);
    if (mine && kind !== "finished") {
      actions.push(h("a", { class: "button primary", href: `#/match/${encodeURIComponent(id)}` },
        t("lobby.resume_as", { seat: seatLabel(mine.seat) })));
    } else if (kind === "open") {
      for (const s of seatsOf(m).filter((x) => !seatTaken(x))) {
        actions.push(h("button", {
          type: "button", class: "primary", "data-focus-key": `join-${id}-${s.seat}`,
          onclick: () => join(m, s.seat),
        }, t("lobby.join_as", { seat: seatLabel(s.seat) })));
      }
      actions.push(h("a", { class: "button", href: `#/match/${encodeURIComponent(id)}` }, t("lobby.watch")));
    } else if (kind === "live") {
      actions.push(h("a", { class: "button", href: `#/match/${encodeURIComponent(id)}` }, t("lobby.watch")));
    } else {
      actions.push(h("a", { class: "button", href: `#/match/${encodeURIComponent(id)}` }, t("lobby.view")));
    }
    const outcome = m.outcome ? h("span", { class: "outcome-chip" },
      m.outcome.winner ? t("lobby.won_by", { seat: seatLabel(m.outcome.winner) }) : t("lobby.draw")) : null;
    const watchers = m.spectators ? h("span", { class: "watchers" }, t("match.watchers", { n: m.spectators })) : null;
    return h("li", { class: "match-row", dataset: { matchId: id } },
      h("div", { class: "match-row-info" },
        h("strong", {}, gameTitle(m.game)), " ", h("code", { class: "match-id" }, String(id).slice(0, 8)),
        h("div", { class: "players" }, players(m)), outcome, watchers),
      h("div", { class: "match-row-actions" }, actions));
  }

  function list(kind) {
    const items = groups[kind];
    return h("section", { class: `panel match-list ${kind}`, "aria-labelledby": `list-${kind}` },
      h("h2", { id: `list-${kind}` }, t(`lobby.${kind}_title`), " ", h("span", { class: "count" }, `(${items.length})`)),
      items.length
        ? h("ul", { class: "matches", "aria-labelledby": `list-${kind}` }, items.map((m) => matchRow(m, kind)))
        : h("p", { class: "empty" }, t(`lobby.${kind}_empty`)));
  }

  // The form is drawn apart from the lists, so a refresh never disturbs typing.
  const formRoot = h("div", { class: "lobby-form" });
  const listsRoot = h("div", { class: "lobby-lists" });

  function drawLists() {
    replaceContent(listsRoot,
      message ? h("p", { class: `message ${message.kind}`, role: "alert" }, message.text) : null,
      list("open"), list("live"), list("finished"),
      h("p", {},
        h("button", { type: "button", "data-focus-key": "refresh", onclick: refresh }, t("lobby.refresh"))));
  }

  function draw() {
    replaceContent(formRoot, createForm());
    drawLists();
    title.textContent = t("lobby.title");
  }

  const title = h("h1", { class: "page-title" });
  root.replaceChildren(title, h("div", { class: "lobby-grid" }, formRoot, listsRoot));
  draw();
  loadGames();
  refresh();
  timer = setInterval(refresh, REFRESH_MS);
  const offLang = onLanguageChange(draw);
  return () => {
    stopped = true;
    clearInterval(timer);
    offLang();
  };
}
