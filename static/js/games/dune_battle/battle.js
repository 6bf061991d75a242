// The battle: the step indicator, the battle header (who fights where, what is in force),
// and the reveal of both plans with the result. Only what the view carries is drawn.

import { h } from "../../dom.js";
import { answerValueText, cardName, dt, factionName, leaderName, leaderStrength, questionText, sectorsText, stepName, territoryName } from "./words.js";

/** The indicator's stops; each lists the engine steps (or phases) it covers. */
const STOPS = [
  ["traitor_pick", ["traitor_pick"]],
  ["choose_battle", ["choose_battle"]],
  ["voice", ["voice", "karama_voice"]],
  ["prescience", ["prescience", "karama_prescience", "answer_prescience"]],
  ["karama", ["karama_full_view", "karama_kh", "karama_elite"]],
  ["truthtrance", []],
  ["commit", ["commit"]],
  ["reveal", ["traitor"]],
  ["resolution", ["capture", "capture_karama", "capture_choice", "keep_cards"]],
];

export const PRE_REVEAL = new Set(["voice", "karama_voice", "prescience", "karama_prescience", "answer_prescience", "karama_full_view", "karama_kh", "karama_elite", "commit"]);

export function currentStep(view) {
  return view.phase === "battle" && view.battle ? view.battle.step : view.phase;
}

function interrupt(view) {
  return (view.battle?.waiting_on || [])[0] || null;
}

export function stepIndicator(view) {
  const step = currentStep(view);
  const asking = interrupt(view)?.kind === "answer_truthtrance";
  const at = STOPS.findIndex(([, steps]) => steps.includes(step));
  const over = view.phase === "over";
  const items = STOPS.map(([name], i) => {
    const current = asking ? name === "truthtrance" : i === at;
    const done = over || (name !== "truthtrance" && at >= 0 && i < at);
    return h("li", {
      class: [done && "is-done", current && "is-current", i === at && asking && "is-underneath"],
      "aria-current": current ? "step" : null,
      dataset: { stop: name },
    }, dt(`stops.${name}`));
  });
  return h("ol", { class: "db-steps", "aria-label": dt("ui.steps_label") }, items);
}

function sideLine(view, side, role) {
  return h("span", { class: ["db-side", `db-f-${side.faction}`], dataset: { role } },
    h("strong", {}, factionName(side.faction)), ` (${dt(`ui.${role}`)})`,
    side.no_leader_available ? h("span", { class: "db-tag warn" }, ` ${dt("ui.no_leader_available")}`) : null);
}

/** What is in force in this battle: Voice, Prescience, questions, Karamas, cancellations. */
function facts(view) {
  const b = view.battle;
  const out = [];
  if (b.voice) {
    out.push(dt(b.voice.cancelled ? "ui.voice_cancelled" : `ui.voice_${b.voice.mode}`, { target: dt(`voice_targets.${b.voice.target}`, {}, b.voice.target) }));
  }
  if (b.prescience) {
    const element = dt(`elements.${b.prescience.element}`, {}, b.prescience.element);
    let line = dt(b.prescience.cancelled ? "ui.prescience_cancelled" : "ui.prescience_asked", { element });
    if ("answer" in b.prescience) line += ` ${dt("ui.prescience_answer", { value: answerValueText(view, b.prescience.element, b.prescience.answer) })}`;
    out.push(line);
  }
  for (const q of b.questions || []) {
    out.push(dt("ui.question_line", { by: factionName(q.by), question: questionText(view, q), answer: q.answer ? dt(`ui.answer_${q.answer}`, {}, q.answer) : dt("ui.unanswered") }));
  }
  for (const effect of b.karama_played || []) out.push(dt("ui.karama_played", { effect: dt(`karama_effects.${effect}`, {}, effect) }));
  if (b.kh_cancelled) out.push(dt("ui.kh_cancelled"));
  if (b.elite_cancelled) out.push(dt("ui.elite_cancelled"));
  if (b.capture_declared) out.push(dt("ui.capture_declared"));
  if (b.victim) out.push(dt("ui.victim", { leader: leaderName(view, b.victim) }));
  const wait = interrupt(view);
  if (wait) out.push(dt(`ui.waiting_${wait.kind}`, { seat: factionName(wait.seat) }, `${wait.kind}: ${factionName(wait.seat)}`));
  return out;
}

export function battleHeader(view) {
  const b = view.battle;
  const lines = [
    h("p", { class: "db-phase-line" }, dt("ui.phase_line", { step: stepName(currentStep(view)), n: view.battles_fought ?? 0 })),
  ];
  if (b) {
    lines.push(h("p", { class: "db-battle-line" },
      dt("ui.battle_in", { territory: territoryName(view, b.territory), sectors: sectorsText(b.sectors) }), " ",
      sideLine(view, b.aggressor, "aggressor"), h("span", { class: "db-vs" }, ` ${dt("ui.versus")} `), sideLine(view, b.defender, "defender")));
    const list = facts(view);
    if (list.length) lines.push(h("ul", { class: "db-facts", "aria-label": dt("ui.in_force") }, list.map((x) => h("li", {}, x))));
  }
  return h("section", { class: "panel db-status", "aria-labelledby": "db-status-title" },
    h("h2", { id: "db-status-title", class: "visually-hidden" }, dt("ui.status")),
    stepIndicator(view), lines);
}

/** A plan as a small card: leader and strength, weapon, defense, tokens on the dial, spice, KH. */
export function planCard(view, plan, { title, faction, cls } = {}) {
  const rows = [];
  if (plan) {
    const strength = plan.leader ? leaderStrength(view, plan.leader) : undefined;
    rows.push(["leader", plan.leader ? `${leaderName(view, plan.leader)}${strength !== undefined ? ` (${strength})` : ""}` : dt("ui.no_leader")]);
    rows.push(["weapon", plan.weapon ? cardName(plan.weapon) : dt("ui.none")]);
    rows.push(["defense", plan.defense ? cardName(plan.defense) : dt("ui.none")]);
    rows.push(["dial", dt("ui.plan_dial", { normal: plan.normal ?? 0, elite: plan.elite ?? 0 })]);
    if (plan.spice) rows.push(["spice", String(plan.spice)]);
    if (plan.kwisatz_haderach) rows.push(["kh", dt("ui.yes")]);
  }
  return h("article", { class: ["db-plan", faction && `db-f-${faction}`, cls], dataset: { faction: faction || "" } },
    title ? h("h3", {}, title) : null,
    plan
      ? h("dl", { class: "db-plan-rows" }, rows.map(([k, v]) => [h("dt", {}, dt(`plan.${k}`)), h("dd", { dataset: { field: k } }, v)]))
      : h("p", { class: "db-muted" }, dt("ui.no_plan")));
}

/** After reveal: both plans side by side, then the result once resolved. `earlier` is the
 * last revealed battle this page saw, shown (as "previous battle") once the view moves on. */
export function revealPanel(view, earlier) {
  let b = view.battle;
  let previous = false;
  if (!b || PRE_REVEAL.has(b.step)) {
    if (!earlier) return null;
    b = earlier;
    previous = true;
  }
  const sides = [b.aggressor, b.defender];
  const mine = sides.find((s) => s.faction === view.viewer);
  let result = null;
  if (b.result) {
    const winner = b.winner ? dt("ui.winner", { faction: factionName(b.winner) }) : dt("ui.no_winner");
    const totals = Object.entries(b.totals || {}).map(([f, n]) => `${factionName(f)} ${n}`).join(" : ");
    result = h("p", { class: "db-result", dataset: { result: b.result, winner: b.winner || "" } },
      dt(`results.${b.result}`, {}, b.result), " — ", winner,
      totals ? h("span", { class: "db-totals", dataset: { field: "totals" } }, ` (${totals})`) : null);
  }
  return h("section", { class: ["panel", "db-reveal", previous && "is-previous"], "aria-labelledby": "db-reveal-title", dataset: { previous: String(previous) } },
    h("h2", { id: "db-reveal-title" }, dt(previous ? "ui.previous_reveal_title" : "ui.reveal_title", { territory: territoryName(view, b.territory) })),
    h("div", { class: "db-plans" }, sides.map((s, i) => planCard(view, s.plan, {
      title: `${factionName(s.faction)} — ${dt(i === 0 ? "ui.aggressor" : "ui.defender")}`, faction: s.faction, cls: "is-revealed",
    }))),
    mine && mine.traitor_call
      ? h("p", { class: "db-muted" }, dt(mine.traitor_call === "call" ? "ui.you_called_traitor" : "ui.you_declined_traitor")) : null,
    result);
}

/** Once the phase is over: the outcome in the game's own terms, forces left on the board. */
export function resultPanel(view) {
  if (view.phase !== "over") return null;
  const totals = new Map((view.options?.factions || []).map((f) => [f, 0]));
  for (const f of view.forces || []) totals.set(f.faction, (totals.get(f.faction) || 0) + f.normal + f.elite);
  const outcome = view.outcome;
  const headline = outcome?.winner ? dt("ui.phase_winner", { faction: factionName(outcome.winner) }) : dt("ui.phase_draw");
  return h("section", { class: "panel db-final", "aria-labelledby": "db-final-title", dataset: { winner: outcome?.winner || "" } },
    h("h2", { id: "db-final-title" }, dt("ui.final_title")),
    h("p", { class: "db-result" }, headline),
    h("p", { class: "db-muted" }, dt("ui.battles_fought", { n: view.battles_fought ?? 0 })),
    h("ul", { class: "db-final-forces", "aria-label": dt("ui.forces_left") }, [...totals].map(([f, n]) =>
      h("li", { class: `db-f-${f}`, dataset: { faction: f } }, h("strong", {}, factionName(f)), ` ${dt("ui.tokens_left", { n })}`))));
}
