// Who sits where and who is connected, from the match summary and `presence` frames,
// and the names of seats and games in the current language.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function seatLabel(seat) {
  return t(`seats.${seat}`, {}, seat);
}

export function gameTitle(game) {
  return t(`games.${game}`, {}, game);
}

/** [{seat, taken, name, connected}] from a match summary. */
export function seatsOf(match) {
  return Array.isArray(match?.seats) ? match.seats : [];
}

/** "online" | "offline" | "open" (seat not taken) | undefined (not known yet). */
export function presenceOf(presence, seat) {
  const entry = (presence?.seats || []).find((s) => s.seat === seat);
  if (!entry) return undefined;
  if (entry.taken === false) return "open";
  return entry.connected ? "online" : "offline";
}

export function spectatorCount(presence, summary) {
  return presence?.spectators ?? summary?.spectators ?? 0;
}

export function seatTaken(seat) {
  return seat.taken ?? Boolean(seat.name);
}

/** Seats nobody has claimed yet. */
export function openSeats(summary, presence) {
  const seats = summary ? seatsOf(summary) : [];
  return seats.filter((s) => !seatTaken(s) && presenceOf(presence, s.seat) !== "online");
}

const BOT_PREFIX = "bot:";

/** A seat's display name; a computer seat ("bot:<level>") in words. */
export function playerName(seat) {
  if (seat.name?.startsWith(BOT_PREFIX)) {
    const level = seat.name.slice(BOT_PREFIX.length);
    return t("lobby.opponent_bot", { level: t(`bots.${level}`, {}, level) });
  }
  return seat.name || (seatTaken(seat) ? t("match.anonymous") : t("lobby.seat_open"));
}

/** The players list: side, name, "(you)", and a connection dot with words. */
export function playerList(summary, presence, mySeat) {
  const seats = summary ? seatsOf(summary) : [];
  return h("ul", { class: "players-list", "aria-label": t("match.players") },
    seats.map((s) => {
      const state = presenceOf(presence, s.seat) || "unknown";
      return h("li", { class: ["player", `presence-${state}`], dataset: { seat: s.seat, presence: state } },
        h("span", { class: "presence-dot", "aria-hidden": "true" }),
        h("strong", {}, seatLabel(s.seat)), " ",
        h("span", { class: "player-name" }, playerName(s)),
        mySeat === s.seat ? h("span", { class: "you-tag" }, ` (${t("match.you")})`) : null,
        h("span", { class: "presence-text" }, ` — ${t(`presence.${state}`, {}, state)}`));
    }));
}
