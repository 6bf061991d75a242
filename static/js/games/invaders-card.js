// One Invaders card, drawn from the catalog entry in the view: name (as printed), category,
// power, discard and drain cost icons, keywords, text (translated), and its state in play.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { typeName, typeText } from "./invaders-words.js";

function costIcon(kind, n) {
  const label = t(`invaders.${kind}_cost`, { n });
  return h("span", { class: ["cost", `cost-${kind}`], title: label, "aria-label": label, role: "img" },
    h("span", { class: "cost-icon", "aria-hidden": "true" }, kind === "discard" ? "✕" : "▼"),
    h("span", { "aria-hidden": "true" }, String(n)));
}

function stateTags(inst) {
  const tags = [];
  if (inst.hero) tags.push(h("span", { class: "hero-tag" }, t("invaders.hero")));
  if (inst.hero) tags.push(h("span", { class: inst.turned ? "turned-tag" : "token-tag" }, t(inst.turned ? "invaders.turned" : "invaders.upright")));
  if (inst.used) tags.push(h("span", { class: "used-tag" }, t("invaders.used_this_turn")));
  if (inst.plus_tokens) tags.push(h("span", { class: "token-tag" }, t("invaders.plus_tokens", { n: inst.plus_tokens })));
  if (inst.wards) tags.push(h("span", { class: "token-tag" }, t("invaders.wards", { n: inst.wards })));
  for (const boost of inst.boosts || []) {
    tags.push(h("span", { class: "token-tag" }, t("invaders.boost", { n: boost.amount > 0 ? `+${boost.amount}` : boost.amount })));
  }
  return tags;
}

/**
 * inst: {id, type, power?, cost?, hero?, turned?, ...} from the view.
 * opts.action: {label, onclick, selected} makes the card a button (a legal option).
 */
export function cardElement(view, inst, opts = {}) {
  const entry = view.catalog?.[inst.type] || {};
  const name = typeName(view, inst.type);
  const power = inst.power ?? entry.power;
  const cost = inst.cost || { discard: entry.discard || 0, drain: entry.drain || 0 };
  const side = entry.side || "mankind";
  const keywords = entry.keywords || [];
  const body = [
    h("span", { class: "card-name" }, name),
    h("span", { class: "card-meta" },
      h("span", { class: "card-category" }, t(`invaders.category.${entry.category}`, {}, entry.category || "")),
      power === null || power === undefined
        ? null // a one-shot: its category already says so
        : h("span", { class: "card-power" }, t("invaders.power", { n: power })),
      cost.discard ? costIcon("discard", cost.discard) : null,
      cost.drain ? costIcon("drain", cost.drain) : null),
    keywords.length ? h("span", { class: "card-keywords" }, keywords.join(" · ")) : null,
    h("span", { class: "card-text" }, typeText(view, inst.type)),
    ...stateTags(inst),
  ];
  const classes = ["card", `side-${side}`, inst.turned && "turned"];
  const data = { card: inst.id, type: inst.type };
  if (opts.action) {
    return h("button", {
      type: "button",
      class: [...classes, "is-target", opts.action.selected && "is-selected"],
      dataset: data,
      "data-focus-key": `card-${inst.id}`,
      "aria-label": `${opts.action.label} — ${name}`,
      onclick: opts.action.onclick,
    }, body);
  }
  return h("article", { class: classes, dataset: data, "aria-label": name }, body);
}
