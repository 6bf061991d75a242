// The prompt: whose decision it is, the step's words, and every legal action that is not
// part of the plan builder, grouped by kind. Each button emits exactly one listed action.

import { h } from "../../dom.js";
import { currentStep } from "./battle.js";
import { actionLabel, cardName, dt, factionName, stepName } from "./words.js";

const PLAN_TYPES = new Set(["set_plan", "commit_plan"]);
const GROUP_ORDER = [
  "pick_traitor", "choose_battle", "voice", "prescience", "answer_prescience", "answer_truthtrance",
  "traitor", "capture", "capture_choice", "keep_cards", "karama", "ghola", "truthtrance", "pass",
];
// Kinds whose options read as one row of buttons under one heading.
const MERGED = { call_traitor: "traitor", decline_traitor: "traitor", kill_captured: "capture_choice" };

function optionButton(ctx, action) {
  return h("li", {}, h("button", {
    type: "button",
    class: ["option", "is-target"],
    dataset: { action: action.type },
    "data-focus-key": `opt-${JSON.stringify(action)}`,
    onclick: () => ctx.emit(action),
  }, actionLabel(ctx.view, action)));
}

/** Voice: one row per mode ("must play" / "must not play"), one button per target. */
function voiceGroup(ctx, actions) {
  const modes = [...new Set(actions.map((a) => a.mode))];
  return modes.map((mode) => h("div", { class: "db-voice-row" },
    h("h4", {}, dt(`ui.voice_mode_${mode}`)),
    h("ul", { class: "actions" }, actions.filter((a) => a.mode === mode).map((a) => h("li", {}, h("button", {
      type: "button", class: ["option", "is-target"], dataset: { action: "voice" },
      "data-focus-key": `opt-${JSON.stringify(a)}`, onclick: () => ctx.emit(a),
    }, dt(`voice_targets.${a.target}`, {}, a.target)))))));
}

/** Truthtrance: many questions, so a list to pick from and one button to ask it. */
function truthtranceGroup(ctx, actions) {
  const ui = ctx.ui;
  if (!(ui.question >= 0 && ui.question < actions.length)) ui.question = 0;
  const cards = [...new Set(actions.map((a) => a.card_id))];
  return h("div", { class: "db-truthtrance" },
    h("label", { class: "field" }, dt("ui.truthtrance_question", { card: cards.map(cardName).join(", ") }),
      h("select", { "data-focus-key": "tt-select", onchange: (e) => { ui.question = Number(e.target.value); } },
        actions.map((a, i) => h("option", { value: i, selected: i === ui.question }, actionLabel(ctx.view, a))))),
    h("button", {
      type: "button", class: ["option", "is-target"], dataset: { action: "truthtrance" }, "data-focus-key": "tt-ask",
      onclick: () => ctx.emit(actions[ui.question] || actions[0]),
    }, dt("actions.ask")));
}

function group(ctx, kind, actions) {
  let body;
  if (kind === "voice") body = voiceGroup(ctx, actions);
  else if (kind === "truthtrance") body = truthtranceGroup(ctx, actions);
  else body = h("ul", { class: "actions" }, actions.map((a) => optionButton(ctx, a)));
  return h("div", { class: ["db-group", `group-${kind}`], dataset: { group: kind } },
    h("h3", {}, dt(`groups.${kind}`, {}, kind)), body);
}

export function decisionPanel(ctx) {
  const { view } = ctx;
  const step = currentStep(view);
  const legal = view.legal_actions || [];
  const mine = legal.length > 0;
  const over = view.phase === "over";
  if (over) return null; // the result panel says it all
  const byKind = new Map();
  for (const a of legal) {
    if (PLAN_TYPES.has(a.type)) continue;
    const kind = MERGED[a.type] || a.type;
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push(a);
  }
  const kinds = [...byKind.keys()].sort((a, b) => GROUP_ORDER.indexOf(a) - GROUP_ORDER.indexOf(b));
  const planToo = legal.some((a) => PLAN_TYPES.has(a.type));
  let title;
  if (mine) title = dt("ui.your_decision");
  else if (view.turn) title = dt("ui.waiting_for", { faction: factionName(view.turn) });
  else title = dt("ui.waiting");
  return h("section", {
    class: ["panel", "prompt-panel", "db-prompt", mine && "is-mine"], "aria-labelledby": "db-prompt-title",
    dataset: { step, turn: view.turn || "" },
  },
  h("h2", { id: "db-prompt-title", tabindex: "-1", "data-focus-fallback": true }, title,
    h("span", { class: "db-step-name" }, stepName(step))),
  h("p", { class: "prompt-text", role: "status" }, dt(`prompts.${step}`, {}, view.prompt?.text || "")),
  kinds.map((kind) => group(ctx, kind, byKind.get(kind))),
  mine && planToo ? h("p", { class: "db-muted" }, dt("ui.plan_below")) : null);
}
