// The Dune battle table: render(root, view, emit). It draws the view the server sent — the
// step indicator, the battle, the decision, the own plan builder, the reveal, the board and
// the factions — and offers exactly view.legal_actions. No rule is computed here.

import { h, replaceContent } from "../dom.js";
import { PRE_REVEAL, battleHeader, resultPanel, revealPanel } from "./dune_battle/battle.js";
import { boardPanel, factionsPanel } from "./dune_battle/board.js";
import { planPanel } from "./dune_battle/builder.js";
import { decisionPanel } from "./dune_battle/decisions.js";
import { dt, wordsReady } from "./dune_battle/words.js";

export { describeEvent } from "./dune_battle/words.js";

const STYLESHEET = "/dune_battle.css";
const uiState = new WeakMap(); // root -> {builder, builderKey, question}: what the person is editing

function ensureStylesheet() {
  if (document.querySelector(`link[data-game-css="dune_battle"]`)) return;
  document.head.appendChild(h("link", { rel: "stylesheet", href: STYLESHEET, dataset: { gameCss: "dune_battle" } }));
}

export function render(root, view, emit) {
  ensureStylesheet();
  let ui = uiState.get(root);
  if (!ui) {
    ui = { builder: null, builderKey: null, question: 0, last: null, revealed: null };
    uiState.set(root, ui);
  }
  ui.last = { view, emit };
  if (!wordsReady(() => { if (ui.last) render(root, ui.last.view, ui.last.emit); })) {
    if (!root.querySelector(".db-table")) replaceContent(root, h("p", { class: "loading" }, "…"));
    return;
  }
  if (view.battle && !PRE_REVEAL.has(view.battle.step)) ui.revealed = view.battle;
  else if (view.battle) ui.revealed = null; // a new battle: the previous reveal is history
  const ctx = { view, emit, ui, rerender: () => render(root, view, emit) };
  replaceContent(root,
    h("div", {
      class: "db-table", role: "region", "aria-label": dt("ui.table"),
      dataset: { viewer: view.viewer || "spectator", phase: view.phase, step: view.battle?.step || view.phase },
    },
    h("div", { class: "db-main" },
      battleHeader(view),
      resultPanel(view),
      decisionPanel(ctx),
      planPanel(ctx),
      revealPanel(view, ui.revealed)),
    h("div", { class: "db-side-col" },
      boardPanel(view),
      factionsPanel(view))));
}
