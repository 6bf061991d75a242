// Replay of a finished match, move by move, from the complete public log
// (GET /api/matches/{id}/log once the match has ended). Each move shows who made it and
// what happened, in words; the table above stays at the final position.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatLabel } from "./players.js";

/**
 * entries: [{seq, seat, action, events}] in order; at: index of the move shown;
 * describe(event): a line of words; go(index): show another move.
 */
export function replayPanel(entries, at, describe, go) {
  if (!entries.length) return null;
  const index = Math.max(0, Math.min(at, entries.length - 1));
  const entry = entries[index];
  const step = (to, label, key) => h("button", {
    type: "button", "data-focus-key": `replay-${key}`, disabled: to === index || to < 0 || to >= entries.length,
    onclick: () => go(to),
  }, label);
  return h("section", { class: "panel replay", "aria-labelledby": "replay-title", dataset: { move: entry.seq } },
    h("h2", { id: "replay-title" }, t("replay.title")),
    h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.title") },
      step(0, t("replay.first"), "first"),
      step(index - 1, t("replay.previous"), "previous"),
      step(index + 1, t("replay.next"), "next"),
      step(entries.length - 1, t("replay.last"), "last")),
    h("p", { class: "replay-move", "aria-live": "polite" },
      t("replay.move", { n: index + 1, total: entries.length, seat: seatLabel(entry.seat) })),
    h("ul", { class: "replay-events" }, (entry.events || []).map((event) => h("li", {}, describe(event)))));
}
