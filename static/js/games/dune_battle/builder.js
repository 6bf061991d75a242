// The plan builder: the ready-made plans of view.legal_actions as one-click choices, and a
// form (leader or Cheap Hero, weapon, defense, the dial of normal/elite tokens, spice, KH)
// whose choices come from those same entries and the viewer's own hand and leaders.
// The server checks every plan; a refused one comes back as an error code in words.

import { h } from "../../dom.js";
import { PRE_REVEAL, planCard } from "./battle.js";
import { cardKind, cardName, dt, factionName, leaderName, leaderStrength, planText } from "./words.js";

const EMPTY_PLAN = { leader: null, weapon: null, defense: null, normal: 0, elite: 0, spice: 0, kwisatz_haderach: false };
const WEAPON_KINDS = new Set(["lasgun", "projectile", "poison", "worthless"]);
const DEFENSE_KINDS = new Set(["shield", "snooper", "worthless"]);

/** The set_plan parameters of a listed plan or a draft (a fresh copy the form may change). */
function planOf(source) {
  const plan = { ...EMPTY_PLAN };
  for (const field of Object.keys(EMPTY_PLAN)) plan[field] = source?.[field] ?? EMPTY_PLAN[field];
  return plan;
}

const uniq = (list) => [...new Set(list)];

/** The builder's choices: every value a listed plan uses, plus own hand cards and leaders. */
function choices(view, suggestions) {
  const me = view.viewer;
  const hand = view.factions?.[me]?.hand || [];
  const b = view.battle;
  // own leaders the view lists as available (in the pool); the listed plans add any other
  // leader the server would accept here
  const ownLeaders = (view.leaders || []).filter((l) => l.controller === me && l.zone === "pool").map((l) => l.id);
  const heroes = hand.filter((c) => cardKind(c) === "cheap_hero");
  const leaders = uniq([...suggestions.map((s) => s.leader).filter(Boolean), ...ownLeaders, ...heroes]);
  const noLeader = suggestions.some((s) => !s.leader) || !leaders.length;
  const weapons = uniq([...suggestions.map((s) => s.weapon).filter(Boolean), ...hand.filter((c) => WEAPON_KINDS.has(cardKind(c)))]);
  const defenses = uniq([...suggestions.map((s) => s.defense).filter(Boolean), ...hand.filter((c) => DEFENSE_KINDS.has(cardKind(c)))]);
  const inZone = (view.forces || []).filter((f) => f.faction === me && f.territory === b.territory && b.sectors.includes(f.sector));
  const max = (field) => Math.max(0, ...suggestions.map((s) => s[field] || 0));
  return {
    leaders, noLeader, weapons, defenses,
    maxNormal: Math.max(max("normal"), inZone.reduce((n, f) => n + f.normal, 0)),
    maxElite: Math.max(max("elite"), inZone.reduce((n, f) => n + f.elite, 0)),
    maxSpice: max("spice"),
    kh: suggestions.some((s) => s.kwisatz_haderach),
  };
}

function select(ctx, field, label, values, { none, nameOf }) {
  const b = ctx.ui.builder;
  return h("label", { class: "field db-field" }, label,
    h("select", {
      name: field, "data-focus-key": `b-${field}`,
      onchange: (e) => { b[field] = e.target.value || null; ctx.rerender(); },
    },
    none || !b[field] ? h("option", { value: "", selected: !b[field] }, none || dt("ui.choose")) : null,
    values.map((v) => h("option", { value: v, selected: b[field] === v }, nameOf(v)))));
}

/** A number with − and + (keyboard: the input itself, arrows, or the two buttons). */
function stepper(ctx, field, label, max, extra) {
  const b = ctx.ui.builder;
  const set = (n) => { b[field] = Math.max(0, Math.min(max, n)); ctx.rerender(); };
  return h("div", { class: "db-stepper", dataset: { field } },
    h("label", { for: `db-b-${field}` }, label, h("span", { class: "db-muted" }, ` (0–${max})`)),
    h("div", { class: "db-stepper-row" },
      h("button", { type: "button", "data-focus-key": `b-${field}-minus`, "aria-label": dt("ui.less", { what: label }), "aria-disabled": b[field] <= 0 ? "true" : null, onclick: () => set(b[field] - 1) }, "−"),
      h("input", {
        id: `db-b-${field}`, type: "number", inputmode: "numeric", min: 0, max, step: 1, value: b[field], name: field,
        "data-focus-key": `b-${field}`, onchange: (e) => set(Number.parseInt(e.target.value, 10) || 0),
      }),
      h("button", { type: "button", "data-focus-key": `b-${field}-plus`, "aria-label": dt("ui.more", { what: label }), "aria-disabled": b[field] >= max ? "true" : null, onclick: () => set(b[field] + 1) }, "+"),
      extra));
}

/** The dial as tokens: the chosen ones filled, the rest of the zone's tokens hollow. */
function dialTokens(normal, maxNormal, elite, maxElite) {
  const dots = [];
  for (let i = 0; i < maxNormal; i += 1) dots.push(h("span", { class: ["db-token", i < normal && "is-on"] }));
  for (let i = 0; i < maxElite; i += 1) dots.push(h("span", { class: ["db-token", "elite", i < elite && "is-on"] }));
  return h("div", { class: "db-dial", "aria-hidden": "true" }, dots);
}

function form(ctx, c) {
  const { view, ui } = ctx;
  const b = ui.builder;
  const leaderLabel = (id) => {
    const s = leaderStrength(view, id);
    return s !== undefined ? `${leaderName(view, id)} (${s})` : leaderName(view, id);
  };
  const submit = () => {
    const action = { type: "set_plan", ...planOf(b) };
    if (!c.kh) action.kwisatz_haderach = false;
    ctx.emit(action);
  };
  return h("form", {
    class: "db-builder", "aria-labelledby": "db-builder-title",
    onsubmit: (e) => { e.preventDefault(); submit(); },
  },
  h("h3", { id: "db-builder-title" }, dt("ui.builder_title")),
  h("div", { class: "db-builder-grid" },
    select(ctx, "leader", dt("plan.leader"), c.leaders, { none: c.noLeader ? dt("ui.no_leader") : null, nameOf: leaderLabel }),
    select(ctx, "weapon", dt("plan.weapon"), c.weapons, { none: dt("ui.none"), nameOf: cardName }),
    select(ctx, "defense", dt("plan.defense"), c.defenses, { none: dt("ui.none"), nameOf: cardName })),
  h("fieldset", { class: "db-dial-set" },
    h("legend", {}, dt("plan.dial")),
    stepper(ctx, "normal", dt("ui.normal"), c.maxNormal),
    c.maxElite ? stepper(ctx, "elite", dt("ui.elite"), c.maxElite) : null,
    dialTokens(b.normal, c.maxNormal, b.elite, c.maxElite),
    c.maxSpice ? stepper(ctx, "spice", dt("plan.spice"), c.maxSpice) : null),
  c.kh ? h("label", { class: "radio db-kh" },
    h("input", { type: "checkbox", name: "kwisatz_haderach", checked: b.kwisatz_haderach, "data-focus-key": "b-kh", onchange: (e) => { b.kwisatz_haderach = e.target.checked; ctx.rerender(); } }),
    " ", dt("ui.kwisatz_haderach")) : null,
  h("p", { class: "db-muted db-builder-summary" }, planText(view, b)),
  h("button", { type: "submit", class: "db-submit", dataset: { action: "set_plan_custom" }, "data-focus-key": "b-submit" }, dt("ui.set_this_plan")));
}

/** The own side before reveal: draft, commit state, what the Atreides saw, and the builder. */
export function planPanel(ctx) {
  const { view, ui } = ctx;
  const b = view.battle;
  const me = view.viewer;
  if (!b || !me || ![b.aggressor.faction, b.defender.faction].includes(me) || !("draft" in (b.aggressor.faction === me ? b.aggressor : b.defender))) return null;
  const side = b.aggressor.faction === me ? b.aggressor : b.defender;
  const legal = view.legal_actions || [];
  const suggestions = legal.filter((a) => a.type === "set_plan");
  const commit = legal.find((a) => a.type === "commit_plan");
  if (!PRE_REVEAL.has(b.step)) return null; // after the reveal both plans are shown together
  const key = `${view.battles_fought}|${b.territory}|${b.aggressor.faction}|${JSON.stringify(side.draft)}|${suggestions.length > 0}`;
  if (ui.builderKey !== key || !ui.builder) {
    ui.builderKey = key;
    ui.builder = planOf(side.draft || suggestions[0]);
  }
  const status = side.committed ? dt("ui.committed") : side.draft ? dt("ui.drafted") : dt("ui.no_draft");
  return h("section", { class: ["panel", "db-own-plan", side.committed && "is-committed"], "aria-labelledby": "db-plan-title", dataset: { committed: String(Boolean(side.committed)) } },
    h("h2", { id: "db-plan-title" }, dt("ui.your_plan"),
      h("span", { class: "db-plan-status" }, status)),
    planCard(view, side.draft, { faction: me, cls: "is-draft" }),
    h("p", { class: "db-muted" }, dt("ui.revisions_left", { n: side.revisions_left ?? 0 })),
    b.full_view ? planCard(view, b.full_view, { title: dt("ui.full_view_of", { faction: factionName(b.aggressor.faction === me ? b.defender.faction : b.aggressor.faction) }), cls: "is-full-view" }) : null,
    commit ? h("button", {
      type: "button", class: ["primary", "is-target", "db-commit"], dataset: { action: "commit_plan" },
      "data-focus-key": "commit", onclick: () => ctx.emit(commit),
    }, dt("actions.commit_plan")) : null,
    suggestions.length ? h("div", { class: "db-suggestions" },
      h("h3", { id: "db-suggest-title" }, dt("ui.suggested_plans")),
      h("ul", { class: "db-suggest-list", "aria-labelledby": "db-suggest-title" }, suggestions.map((s, i) => h("li", {},
        h("button", {
          type: "button", class: ["is-target", "db-suggestion"], dataset: { action: "set_plan" },
          "data-focus-key": `sug-${i}`, onclick: () => ctx.emit(s),
        }, planText(view, s)),
        h("button", {
          type: "button", class: "link-button db-edit", "data-focus-key": `sug-edit-${i}`,
          "aria-label": dt("ui.edit_plan", { plan: planText(view, s) }),
          onclick: () => { ui.builder = planOf(s); ctx.rerender(); document.getElementById("db-builder-title")?.scrollIntoView({ block: "nearest" }); },
        }, dt("ui.edit")))))) : null,
    suggestions.length ? form(ctx, choices(view, suggestions)) : null);
}
