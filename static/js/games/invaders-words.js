// Invaders in words: names of cards, zones, strategies and seats, the prompt, the label of
// each legal action, and each event of the log. Pure lookups in view.catalog and i18n;
// no rules are decided here.

import { t } from "../i18n.js";

/** Card instance id -> type id for every card visible in this view. */
export function instanceTypes(view) {
  const types = new Map();
  const add = (c) => { if (c?.id && c.type) types.set(c.id, c.type); };
  for (const zone of view.zones || []) {
    for (const c of zone.mankind || []) add(c);
    for (const c of zone.invader || []) add(c);
  }
  for (const c of view.limbo || []) add(c);
  for (const player of Object.values(view.players || {})) {
    for (const c of player.hand || []) add(c);
    for (const c of player.discard || []) add(c);
  }
  return types;
}

export function seatName(seat) {
  return seat ? t(`seats.${seat}`, {}, seat) : "";
}

export function zoneName(view, zoneId) {
  const zone = (view.zones || []).find((z) => z.id === zoneId);
  return t(`invaders.zones.${zoneId}`, {}, zone?.name || String(zoneId ?? ""));
}

/** A card or strategy name as printed (never translated); the id, tidied, if unknown. */
export function typeName(view, typeId) {
  if (!typeId) return "";
  const entry = view.catalog?.[typeId];
  return entry?.name || String(typeId).replace(/_/g, " ");
}

/** The text of a card or strategy in the current language, else the view's English. */
export function typeText(view, typeId) {
  const entry = view.catalog?.[typeId];
  const group = entry && "owner" in entry ? "strategies" : "cards";
  return t(`invaders.${group}.${typeId}`, {}, entry?.text || "");
}

export function cardName(view, cardId, typeId, types = instanceTypes(view)) {
  return typeName(view, typeId || types.get(cardId)) || t("invaders.hidden_card", {}, "a card");
}

/** The words of the prompt for whoever looks at it. */
export function promptText(view) {
  const prompt = view.prompt;
  if (!prompt || prompt.kind === "game_over") return "";
  if (prompt.seat && prompt.seat !== view.viewer) return t("invaders.waiting_for", { seat: seatName(prompt.seat) });
  const info = prompt.info || {};
  const params = {
    ...info,
    card: cardName(view, info.card, info.card_type),
    source: typeName(view, info.source_type),
    zone: info.zone ? zoneName(view, info.zone) : "",
    strategy: typeName(view, info.strategy),
  };
  return t(`invaders.prompt.${prompt.kind}`, params, t("invaders.prompt.other"));
}

/** The label of one legal action, e.g. "Play 'Kraken' Warmachine" or "Zone: Eurasia". */
export function actionLabel(view, action) {
  const info = view.prompt?.info || {};
  const params = {
    card: action.card ? cardName(view, action.card) : "",
    zone: action.zone ? zoneName(view, action.zone) : "",
    strategy: typeName(view, action.strategy),
    type: action.type,
  };
  switch (action.type) {
    case "plot_action":
      return t(`invaders.action.plot_action.${action.option}`, {}, `${action.type} ${action.option}`);
    case "choose_branch": {
      const name = info.branches?.[action.branch] ?? String(action.branch);
      return t("invaders.action.choose_branch", { branch: t(`invaders.branch.${name}`, {}, name.replace(/_/g, " ")) });
    }
    case "choose_trigger": {
      const trig = (info.triggers || []).find((x) => x.index === action.index) || {};
      return t("invaders.action.choose_trigger", { card: typeName(view, trig.card_type) || `#${action.index}` });
    }
    default:
      return t(`invaders.action.${action.type}`, params, t("invaders.action.other", params));
  }
}

/** One log line for an event (already redacted by the server for this viewer). */
export function describeEvent(event, view) {
  const types = instanceTypes(view);
  const params = {
    ...event,
    seat: seatName(event.seat),
    winner: seatName(event.winner),
    card: event.card || event.card_type ? cardName(view, event.card, event.card_type, types) : "",
    zone: event.zone ? zoneName(view, event.zone) : "",
    from: event.from ? zoneName(view, event.from) : "",
    to: event.type === "card_moved" ? zoneName(view, event.to) : event.to,
    zones: (event.zones || []).map((z) => zoneName(view, z)).join(", "),
    strategy: typeName(view, event.strategy),
    option: event.option ? t(`invaders.action.plot_action.${event.option}`, {}, event.option) : "",
    amount: event.amount > 0 && event.type === "zone_power_modified" ? `+${event.amount}` : event.amount,
    result: event.result ? t(`invaders.result.${event.result}`, {}, event.result) : "",
  };
  let key = event.type;
  if (event.type === "card_drawn" && !event.card) key = "card_drawn_hidden";
  if (event.type === "plot_check") key = event.drain_inflicted ? "plot_check_drained" : "plot_check_clean";
  return t(`invaders.event.${key}`, params, t("invaders.event.other", params));
}
