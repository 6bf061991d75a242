// The Invaders table: render(root, view, emit). It draws the view the server sent and offers
// exactly view.legal_actions — a card, zone or strategy lights up when a legal action names
// it; clicking it emits that action. No rule is computed here.

import { h, replaceContent } from "../dom.js";
import { t } from "../i18n.js";
import { cardElement } from "./invaders-card.js";
import { actionLabel, promptText, seatName, typeName, typeText, zoneName } from "./invaders-words.js";

export { describeEvent } from "./invaders-words.js";

const PHASES = ["draw", "main", "attack", "end"];
const SLOTS_PER_SIDE = 4;
const uiState = new WeakMap(); // root -> {menu, openPiles, key}: what the person has open

/** Group legal actions by the thing they name: "card:c17", "zone:eurasia", "strategy:x". */
function indexActions(actions) {
  const byRef = new Map();
  const free = [];
  for (const action of actions || []) {
    const ref = action.card ? `card:${action.card}` : action.zone ? `zone:${action.zone}`
      : action.strategy ? `strategy:${action.strategy}` : null;
    if (!ref) free.push(action);
    else if (byRef.has(ref)) byRef.get(ref).push(action);
    else byRef.set(ref, [action]);
  }
  return { byRef, free };
}

export function render(root, view, emit) {
  let ui = uiState.get(root);
  if (!ui) {
    ui = { menu: null, openPiles: new Set(), key: null };
    uiState.set(root, ui);
  }
  const key = JSON.stringify(view.legal_actions || []);
  if (ui.key !== key) ui.menu = null; // a new decision: forget a half-open menu
  ui.key = key;
  const rerender = () => render(root, view, emit);
  const ctx = { view, emit, ui, rerender, ...indexActions(view.legal_actions) };

  ctx.choose = (ref) => {
    const options = ctx.byRef.get(ref) || [];
    if (options.length === 1) emit(options[0]);
    else if (options.length > 1) {
      ui.menu = ref;
      rerender();
    }
  };
  ctx.actionFor = (ref) => {
    const options = ctx.byRef.get(ref);
    if (!options) return null;
    const label = options.map((a) => actionLabel(view, a)).join(" / ");
    return { label, selected: ui.menu === ref, onclick: () => ctx.choose(ref), type: options[0].type };
  };

  const viewer = view.viewer;
  const top = viewer === "invader" ? "mankind" : "invader";
  const bottom = top === "invader" ? "mankind" : "invader";
  replaceContent(root,
    h("div", { class: "inv-table", role: "region", "aria-label": t("invaders.table"), dataset: { viewer: viewer || "spectator", phase: view.phase } },
      statusPanel(ctx),
      promptPanel(ctx),
      sidePanel(ctx, top),
      h("section", { class: "zones", "aria-label": t("invaders.zones_label") },
        (view.zones || []).map((zone) => zonePanel(ctx, zone, top, bottom))),
      sidePanel(ctx, bottom),
      handPanel(ctx)));
}

function statusPanel({ view }) {
  const current = view.phase;
  const phases = (current === "setup" ? ["setup", ...PHASES] : PHASES).map((phase) =>
    h("li", { "aria-current": phase === current ? "step" : null, dataset: { phase } }, t(`invaders.phase.${phase}`)));
  const yourTurn = view.viewer && view.active === view.viewer && !view.outcome;
  const track = [];
  for (let n = 12; n >= 0; n -= 1) {
    const here = view.plot === n;
    track.push(h("li", {
      class: [n === 0 && "skull", here && "is-marker"],
      "aria-current": here ? "location" : null,
      "aria-label": here ? t("invaders.plot_marker", { n }) : null,
    }, n === 0 ? t("invaders.skull") : String(n)));
  }
  return h("section", { class: "panel inv-status" },
    h("div", {},
      h("ol", { class: "phase-bar", "aria-label": t("invaders.phases_label") }, phases),
      h("p", { class: ["turn-line", `side-${view.active}`] },
        t("invaders.turn", { n: view.turn, seat: seatName(view.active) }),
        yourTurn ? ` — ${t("invaders.your_turn")}` : "")),
    h("div", {},
      h("p", { class: "plot-label" }, t("invaders.plot_marker", { n: view.plot })),
      h("ol", { class: "plot-track", "aria-label": t("invaders.plot_track") }, track)));
}

function optionButton(ctx, action, i) {
  return h("li", {}, h("button", {
    type: "button",
    class: ["option", "is-target", action.type === "end_main" && "primary"],
    dataset: { action: action.type },
    "data-focus-key": `opt-${JSON.stringify(action)}`,
    onclick: () => ctx.emit(action),
  }, actionLabel(ctx.view, action)));
}

function promptPanel(ctx) {
  const { view, ui } = ctx;
  const prompt = view.prompt;
  if (!prompt || prompt.kind === "game_over") return null;
  const mine = prompt.seat && prompt.seat === view.viewer;
  let options = ctx.free;
  if (mine && prompt.kind !== "main") options = view.legal_actions || []; // short lists: all as buttons
  const menu = ui.menu ? ctx.byRef.get(ui.menu) || [] : [];
  const limbo = (view.limbo || []).map((c) => h("li", {}, cardElement(view, c)));
  return h("section", {
    class: ["panel", "prompt-panel", mine && "is-mine"], "aria-labelledby": "prompt-title",
    dataset: { kind: prompt.kind, seat: prompt.seat || "" },
  },
  h("h2", { id: "prompt-title", tabindex: "-1", "data-focus-fallback": true }, mine ? t("invaders.prompt_title") : t("invaders.waiting_for", { seat: seatName(prompt.seat) })),
  mine ? h("p", { class: "prompt-text", role: "status" }, promptText(view)) : null,
  limbo.length ? h("ul", { class: "card-row limbo", "aria-label": t("invaders.in_play") }, limbo) : null,
  menu.length ? h("div", { class: "menu", onkeydown: (e) => { if (e.key === "Escape") { ui.menu = null; ctx.rerender(); } } },
    h("ul", { class: "actions" }, menu.map((a, i) => optionButton(ctx, a, i)),
      h("li", {}, h("button", { type: "button", "data-focus-key": "menu-cancel", onclick: () => { ui.menu = null; ctx.rerender(); } }, t("invaders.cancel")))))
    : null,
  mine && options.length ? h("ul", { class: "actions", "aria-label": t("invaders.other_options") }, options.map((a, i) => optionButton(ctx, a, i))) : null,
  mine && prompt.kind === "main" && view.players?.[view.viewer]?.hand?.length
    ? h("button", { type: "button", class: "link-button", "data-focus-key": "to-hand", onclick: focusHand }, t("invaders.to_hand"))
    : null);
}

/** Scroll to the own hand and put the focus there (the hash is the route: no #anchor). */
function focusHand() {
  const title = document.getElementById("hand-title");
  title?.scrollIntoView({ block: "start" });
  title?.focus({ preventScroll: true });
}

function counts(view, seat) {
  const p = view.players?.[seat] || {};
  const items = [
    t("invaders.hand_count", { n: p.hand_size ?? 0 }),
    t("invaders.deck_count", { n: p.deck_size ?? 0 }),
    t("invaders.discard_count", { n: (p.discard || []).length }),
  ];
  if (seat === "mankind") {
    items.push(t("invaders.heroes_left", { n: p.hero_pile_size ?? 0 }));
    if (p.shield) items.push(t("invaders.shield", { n: p.shield }));
  }
  return h("ul", { class: "counts" }, items.map((text) => h("li", {}, text)));
}

function heroLine(view) {
  const hero = view.hero;
  if (!hero) return h("p", { class: "hero-line" }, t("invaders.no_hero"));
  const zone = (view.zones || []).find((z) => (z.mankind || []).some((c) => c.id === hero.id));
  const inst = zone?.mankind.find((c) => c.id === hero.id);
  return h("p", { class: "hero-line", dataset: { turned: String(Boolean(hero.turned)) } },
    t("invaders.current_hero", { card: typeName(view, inst?.type), zone: zone ? zoneName(view, zone.id) : "—" }),
    " — ", t(hero.turned ? "invaders.turned" : "invaders.upright"));
}

function strategyItem(ctx, strategy) {
  const { view } = ctx;
  const name = typeName(view, strategy.id);
  const state = t(strategy.enabled ? "invaders.enabled" : "invaders.dormant");
  const body = [h("strong", {}, name), " ", h("span", { class: "state" }, `(${state})`), h("span", { class: "strategy-text" }, typeText(view, strategy.id))];
  const action = ctx.actionFor(`strategy:${strategy.id}`);
  const cls = ["strategy", strategy.enabled ? "enabled" : "dormant"];
  if (action) {
    return h("li", {}, h("button", {
      type: "button", class: [...cls, "is-target"], dataset: { strategy: strategy.id, action: action.type },
      "data-focus-key": `strategy-${strategy.id}`, "aria-label": `${action.label} — ${name}`, onclick: action.onclick,
    }, body));
  }
  return h("li", { class: cls, dataset: { strategy: strategy.id } }, body);
}

function pile(ctx, seat) {
  const { view, ui } = ctx;
  const cards = (view.players?.[seat]?.discard || []).slice().reverse(); // top first
  const hasTarget = cards.some((c) => ctx.byRef.has(`card:${c.id}`));
  const details = h("details", { class: "pile", open: hasTarget || ui.openPiles.has(seat), dataset: { seat } },
    h("summary", { "data-focus-key": `pile-${seat}` }, t("invaders.discard_pile", { side: seatName(seat), n: cards.length })),
    cards.length
      ? h("ul", { "aria-label": t("invaders.discard_pile", { side: seatName(seat), n: cards.length }) },
        cards.map((c) => h("li", {}, cardElement(view, c, { action: ctx.actionFor(`card:${c.id}`) }))))
      : h("p", { class: "empty" }, t("invaders.empty_pile")));
  details.addEventListener("toggle", () => {
    if (hasTarget) return; // opened for a choice, not by the person: do not keep it open
    if (details.open) ui.openPiles.add(seat);
    else ui.openPiles.delete(seat);
  });
  return details;
}

function sidePanel(ctx, seat) {
  const { view } = ctx;
  const p = view.players?.[seat] || {};
  const you = view.viewer === seat;
  const extras = [];
  if (seat === "invader" && p.cost_reduction) extras.push(h("li", {}, t(`invaders.action.plot_action.reduce_${p.cost_reduction}`)));
  const strategies = [...(p.strategies || [])];
  return h("section", { class: ["panel", "side-panel", `side-${seat}`], "aria-labelledby": `side-${seat}-title`, dataset: { seat } },
    h("div", { class: "side-info" },
      h("h3", { id: `side-${seat}-title` }, seatName(seat), you ? ` (${t("match.you")})` : ""),
      counts(view, seat)),
    seat === "mankind" ? heroLine(view) : null,
    extras.length ? h("ul", { class: "counts" }, extras) : null,
    knownHand(view, seat),
    h("ul", { class: "strategies", "aria-label": t("invaders.strategies", { side: seatName(seat) }) },
      strategies.map((s) => strategyItem(ctx, s))),
    pile(ctx, seat));
}

/** Hand cards whose identity is public (returned or recovered cards), shown to everyone. */
function knownHand(view, seat) {
  const known = view.players?.[seat]?.known_hand || [];
  if (!known.length) return null;
  return h("p", { class: "known-hand" }, `${t("invaders.known_hand")}: `,
    known.map((c, i) => [i ? ", " : "", h("span", { class: "card-chip", dataset: { card: c.id } }, typeName(view, c.type))]));
}

function slotList(ctx, zone, seat) {
  const cards = zone[seat] || [];
  const slots = [];
  for (let i = 0; i < Math.max(SLOTS_PER_SIDE, cards.length); i += 1) {
    const c = cards[i];
    slots.push(c
      ? h("li", { class: "slot" }, cardElement(ctx.view, c, { action: ctx.actionFor(`card:${c.id}`) }))
      : h("li", { class: "slot empty-slot" }, t("invaders.empty_slot")));
  }
  const label = t("invaders.slots", { side: seatName(seat), zone: zoneName(ctx.view, zone.id) });
  return [h("p", { class: "slots-label" }, label),
    h("ul", { class: ["slots", `slots-${seat}`], "aria-label": label, dataset: { seat } }, slots)];
}

function zonePanel(ctx, zone, top, bottom) {
  const { view } = ctx;
  const name = zoneName(view, zone.id);
  const action = ctx.actionFor(`zone:${zone.id}`);
  const mods = (zone.modifiers || []).map((m) => `${m.amount > 0 ? "+" : ""}${m.amount}`).join(" ");
  const totals = zone.totals || {};
  return h("section", { class: ["zone", action && "zone-highlight"], "aria-labelledby": `zone-${zone.id}`, dataset: { zone: zone.id } },
    h("div", { class: "zone-head" },
      h("h3", { id: `zone-${zone.id}` }, name),
      h("span", { class: "zone-power" }, t("invaders.zone_power", { n: zone.power }), mods ? ` (${mods})` : ""),
      zone.tokens ? h("span", { class: "tokens" }, t("invaders.minus_tokens", { n: zone.tokens })) : null),
    action ? h("button", {
      type: "button", class: ["zone-target", "is-target"], dataset: { zone: zone.id, action: action.type },
      "data-focus-key": `zone-${zone.id}`, onclick: action.onclick,
    }, action.label) : null,
    slotList(ctx, zone, top),
    h("p", { class: "zone-totals", "aria-label": t("invaders.totals", { zone: name }) },
      h("span", { class: `total-${top}` }, t("invaders.total_side", { side: seatName(top), n: totals[top] ?? 0 })),
      h("span", { class: `total-${bottom}` }, t("invaders.total_side", { side: seatName(bottom), n: totals[bottom] ?? 0 }))),
    slotList(ctx, zone, bottom));
}

function handPanel(ctx) {
  const { view } = ctx;
  const me = view.viewer && view.players?.[view.viewer];
  if (!me || !Array.isArray(me.hand)) return null; // spectators have no hand
  return h("section", { class: "panel hand-panel", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title", tabindex: "-1" }, `${t("invaders.hand")} (${me.hand.length})`),
    h("ul", { class: "hand own-hand", "aria-labelledby": "hand-title" },
      me.hand.map((c) => h("li", {}, cardElement(view, c, { action: ctx.actionFor(`card:${c.id}`) })))));
}
