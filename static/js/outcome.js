// The game-over box: who won (or "you won / you lost" for a player) and why, in words.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatLabel } from "./players.js";

/** outcome: {winner, reason, detail}; mySeat: the viewer's seat or null for a spectator. */
export function outcomeBox(outcome, mySeat) {
  const winnerText = outcome.winner ? t("outcome.winner", { seat: seatLabel(outcome.winner) }) : t("outcome.draw");
  let headline = winnerText;
  if (mySeat && outcome.winner) headline = t(outcome.winner === mySeat ? "outcome.you_won" : "outcome.you_lost");
  const reason = t(`outcome.reasons.${outcome.reason}`, {}, outcome.detail || outcome.reason);
  return h("section", {
    class: ["game-over", outcome.winner ? `winner-${outcome.winner}` : "draw"],
    role: "region", "aria-labelledby": "game-over-title", tabindex: "-1",
    dataset: { winner: outcome.winner || "", reason: outcome.reason || "" },
  },
  h("h2", { id: "game-over-title" }, t("outcome.title")),
  h("p", { class: "outcome-headline" }, headline),
  headline !== winnerText ? h("p", { class: "outcome-winner" }, winnerText) : null,
  h("p", { class: "outcome-reason" }, reason),
  h("p", {}, h("a", { class: "button", href: "#/" }, t("outcome.back_to_lobby"))));
}
