// The Dune battle in words: the per-game catalog (static/i18n/dune_battle/<lang>.json), names of
// factions, leaders, cards and territories, the label of each legal action and each log event.
// Pure lookups; no rule is decided here.

import { language, onLanguageChange } from "../../i18n.js";

const catalogs = {};
const loading = {};
const waiting = new Set();

function fetchCatalog(lang) {
  if (!loading[lang]) {
    loading[lang] = fetch(`/i18n/dune_battle/${lang}.json`)
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then((data) => {
        catalogs[lang] = data;
        const callbacks = [...waiting];
        waiting.clear(); // a callback may wait again (for the other catalog)
        for (const again of callbacks) again();
      });
  }
  return loading[lang];
}

/** True once English and the current language are loaded; else loads them and calls `again`. */
export function wordsReady(again) {
  const lang = language();
  if (catalogs.en && catalogs[lang]) return true;
  if (again) waiting.add(again);
  fetchCatalog("en");
  fetchCatalog(lang);
  return false;
}

onLanguageChange((lang) => { fetchCatalog(lang); });

function lookup(catalog, key) {
  let node = catalog;
  for (const part of key.split(".")) {
    if (node == null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** The Dune text for key with {placeholders}; English, then `fallback`, then the key. */
export function dt(key, params = {}, fallback) {
  let text = lookup(catalogs[language()] || {}, key);
  if (text === undefined) text = lookup(catalogs.en || {}, key);
  if (text === undefined) text = fallback !== undefined ? fallback : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

const tidy = (id) => String(id ?? "").replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());

export function factionName(faction) {
  return faction ? dt(`factions.${faction}`, {}, tidy(faction)) : "";
}

/** A leader's printed name from the view, else its id tidied. */
export function leaderName(view, id) {
  if (!id) return dt("ui.no_leader");
  if (id === "cheap_hero") return cardName("cheap_hero");
  if (id === "none") return dt("ui.no_leader");
  if (id === "kwisatz_haderach") return dt("ui.kwisatz_haderach");
  if (/-\d+$/.test(id)) return cardName(id); // a Cheap Hero card
  const leader = (view.leaders || []).find((l) => l.id === id);
  return leader?.name || tidy(id);
}

export function leaderStrength(view, id) {
  return (view.leaders || []).find((l) => l.id === id)?.strength;
}

/** "shield-3" or "shield" -> the printed name in the current language. */
export function cardSlug(id) {
  return String(id ?? "").replace(/-\d+$/, "");
}

// Printed card data (the kind each card face shows); the server still checks every slot.
const CARD_KINDS = {
  lasgun: "lasgun", crysknife: "projectile", maula_pistol: "projectile", slip_tip: "projectile", stunner: "projectile",
  chaumas: "poison", chaumurky: "poison", ellaca_drug: "poison", gom_jabbar: "poison",
  shield: "shield", snooper: "snooper", cheap_hero: "cheap_hero",
  baliset: "worthless", jubba_cloak: "worthless", kulon: "worthless", la_la_la: "worthless", trip_to_gamont: "worthless",
  karama: "karama", truthtrance: "truthtrance", tleilaxu_ghola: "ghola",
  weather_control: "weather_control", family_atomics: "family_atomics", hajr: "hajr",
};

export function cardKind(id) {
  return CARD_KINDS[cardSlug(id)] || "other";
}

export function cardName(id) {
  if (!id || id === "none") return dt("ui.none");
  const slug = cardSlug(id);
  return dt(`cards.${slug}`, {}, tidy(slug));
}

export function territoryName(view, id) {
  const terr = (view.territories || []).find((x) => x.id === id);
  return dt(`territories.${id}`, {}, terr?.name || tidy(id));
}

export function stepName(step) {
  return dt(`steps.${step}`, {}, tidy(step));
}

export function sectorsText(sectors) {
  const list = (sectors || []).slice().sort((a, b) => a - b);
  if (!list.length) return "";
  if (list.length === 1) return dt("ui.sector", { n: list[0] });
  const contiguous = list.every((n, i) => i === 0 || n === list[i - 1] + 1);
  return dt("ui.sectors", { list: contiguous ? `${list[0]}–${list[list.length - 1]}` : list.join(", ") });
}

/** A plan in words: leader, weapon, defense, tokens dialed, spice, KH. */
export function planText(view, plan) {
  if (!plan) return dt("ui.no_plan");
  const parts = [
    plan.leader ? leaderName(view, plan.leader) : dt("ui.no_leader"),
    dt("ui.plan_weapon", { card: plan.weapon ? cardName(plan.weapon) : dt("ui.none") }),
    dt("ui.plan_defense", { card: plan.defense ? cardName(plan.defense) : dt("ui.none") }),
    dt("ui.plan_dial", { normal: plan.normal ?? 0, elite: plan.elite ?? 0 }),
  ];
  if (plan.spice) parts.push(dt("ui.plan_spice", { n: plan.spice }));
  if (plan.kwisatz_haderach) parts.push(dt("ui.kwisatz_haderach"));
  return parts.join(" · ");
}

export function questionText(view, q) {
  const params = {
    to: factionName(q.to),
    leader: leaderName(view, q.param),
    card: dt(`question_cards.${q.param}`, {}, tidy(q.param)),
    kind: dt(`question_${q.kind === "defense_kind" ? "defenses" : "weapons"}.${q.param}`, {}, tidy(q.param)),
    n: q.param,
  };
  return dt(`questions.${q.kind}`, params, `${q.kind} ${q.param ?? ""}`);
}

function answerValueText(view, element, value) {
  if (value === "none" || value === null || value === undefined) return dt("ui.none");
  if (element === "dial") return String(value);
  if (element === "leader") return leaderName(view, value);
  return cardName(value);
}

export { answerValueText };

/** The words on the button of one legal action. */
export function actionLabel(view, a) {
  switch (a.type) {
    case "pick_traitor": {
      const s = leaderStrength(view, a.leader);
      return dt("actions.pick_traitor", { leader: leaderName(view, a.leader), strength: s ?? "?" });
    }
    case "kill_captured": // option kill_captured_later (G-12 variant, R-32)
      return `${leaderName(view, a.leader)}: ${dt("actions.capture_kill")}`;
    case "choose_battle":
      return dt("actions.choose_battle", { territory: territoryName(view, a.territory), sectors: sectorsText(a.sectors), opponent: factionName(a.opponent) });
    case "voice":
      return dt(`actions.voice_${a.mode}`, { target: dt(`voice_targets.${a.target}`, {}, tidy(a.target)) });
    case "prescience":
      return dt("actions.prescience", { element: dt(`elements.${a.element}`, {}, a.element) });
    case "answer_prescience": {
      const element = view.battle?.prescience?.element;
      return dt("actions.answer_prescience", { value: answerValueText(view, element, a.value) });
    }
    case "karama":
      return dt(`actions.karama.${a.effect}`, { card: cardName(a.card_id) }, `${tidy(a.effect)} (${cardName(a.card_id)})`);
    case "truthtrance":
      return questionText(view, { ...a.question, to: view.battle && otherCombatant(view) });
    case "answer_truthtrance":
      return dt(`actions.answer_${a.answer}`);
    case "ghola":
      return a.leader
        ? dt("actions.ghola_leader", { leader: leaderName(view, a.leader) })
        : dt("actions.ghola_forces", { normal: a.normal ?? 0, elite: a.elite ?? 0 });
    case "capture":
      return dt(a.take ? "actions.capture_take" : "actions.capture_decline");
    case "capture_choice":
      return dt(`actions.capture_${a.choice}`);
    case "keep_cards":
      return a.discard?.length
        ? dt("actions.keep_discard", { cards: a.discard.map(cardName).join(", ") })
        : dt("actions.keep_all");
    case "set_plan":
      return planText(view, a);
    default:
      return dt(`actions.${a.type}`, {}, tidy(a.type));
  }
}

export function otherCombatant(view) {
  const b = view.battle;
  if (!b) return null;
  return view.viewer === b.aggressor.faction ? b.defender.faction : b.aggressor.faction;
}

function lostText(lost) {
  if (!lost || typeof lost !== "object") return "";
  return Object.entries(lost).map(([f, v]) => {
    const n = typeof v === "object" && v ? (v.normal ?? 0) + (v.elite ?? 0) : v;
    return `${factionName(f)} −${n}`;
  }).join(", ");
}

/** One line of the match log (match.js calls the module's describeEvent). */
export function describeEvent(e, view = {}) {
  const f = (x) => factionName(x);
  switch (e.type) {
    case "traitor_picked": return dt("events.traitor_picked", { leader: leaderName(view, e.leader) });
    case "battle_started":
      return dt("events.battle_started", { aggressor: f(e.aggressor), defender: f(e.defender), territory: territoryName(view, e.territory), sectors: sectorsText(e.sectors) });
    case "voice": return dt(`events.voice_${e.mode}`, { by: f(e.by), to: f(e.to), target: dt(`voice_targets.${e.target}`, {}, tidy(e.target)) });
    case "prescience_asked": return dt("events.prescience_asked", { by: f(e.by), element: dt(`elements.${e.element}`, {}, e.element) });
    case "prescience_answered": return dt("events.prescience_answered", { element: dt(`elements.${e.element}`, {}, e.element), value: answerValueText(view, e.element, e.value) });
    case "plan_drafted": return dt("events.plan_drafted", { plan: planText(view, e.plan) });
    case "plan_committed": return dt("events.plan_committed");
    case "full_view_seen": return dt("events.full_view_seen", { of: f(e.of), plan: planText(view, e.plan) });
    case "karama": return dt("events.karama", { by: f(e.by), effect: dt(`karama_effects.${e.effect}`, {}, tidy(e.effect)), card: cardName(e.card) });
    case "truthtrance": return dt("events.truthtrance", { by: f(e.by), question: questionText(view, e), answer: e.answer ? dt(`ui.answer_${e.answer}`) : "…" });
    case "truthtrance_answered": return dt("events.truthtrance_answered", { question: questionText(view, e), answer: dt(`ui.answer_${e.answer}`, {}, String(e.answer)) });
    case "ghola": return e.leader
      ? dt("events.ghola_leader", { by: f(e.by), leader: leaderName(view, e.leader) })
      : dt("events.ghola_forces", { by: f(e.by), normal: e.normal ?? 0, elite: e.elite ?? 0 });
    case "plans_revealed":
      return dt("events.plans_revealed", { plans: Object.entries(e.plans || {}).map(([fac, p]) => `${f(fac)}: ${planText(view, p)}`).join(" — ") });
    case "traitor_decided": return dt("events.traitor_decided");
    case "traitor_calls": {
      const callers = Object.entries(e.calls || {}).filter(([, v]) => v).map(([x]) => f(x));
      return callers.length ? dt("events.traitor_called", { who: callers.join(", ") }) : dt("events.no_traitor");
    }
    case "battle_resolved": {
      const totals = e.totals ? Object.entries(e.totals).map(([x, n]) => `${f(x)} ${n}`).join(" : ") : "";
      return dt(`events.resolved_${e.result}`, { winner: f(e.winner), totals, lost: lostText(e.lost) }, `${e.result}`)
        + (e.leaders_killed?.length ? ` ${dt("events.leaders_killed", { leaders: e.leaders_killed.map((l) => leaderName(view, l)).join(", ") })}` : "");
    }
    case "capture_declared": return dt("events.capture_declared", { by: f(e.by) });
    case "capture_declined": return dt("events.capture_declined", { by: f(e.by) });
    case "capture_victim": return dt("events.capture_victim", { leader: leaderName(view, e.victim), from: f(e.from) });
    case "leader_captured": return dt(`events.leader_captured_${e.choice}`, { by: f(e.by), from: f(e.from) });
    case "capture_result": return dt(`events.capture_result_${e.choice}`, { leader: leaderName(view, e.victim) });
    case "cards_kept": return e.discarded?.length
      ? dt("events.cards_discarded", { by: f(e.by), cards: e.discarded.map(cardName).join(", ") })
      : dt("events.cards_kept", { by: f(e.by) });
    case "battle_ended": return e.winner ? dt("events.battle_ended", { winner: f(e.winner) }) : dt("events.battle_ended_none");
    case "battle_phase_over":
      return dt("events.battle_phase_over", { forces: Object.entries(e.forces || {}).map(([x, n]) => `${f(x)} ${n}`).join(", ") });
    default: return dt(`events.${e.type}`, e, tidy(e.type));
  }
}
