// The table for a game without its own module: the prompt and legal actions as buttons.
// It keeps the platform usable (and testable) for any registered game.

import { h, replaceContent } from "../dom.js";
import { t } from "../i18n.js";

function label(action) {
  return Object.entries(action)
    .map(([key, value]) => (key === "type" ? String(value) : `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`))
    .join(" · ");
}

export function render(root, view, emit) {
  const actions = view.legal_actions || [];
  const prompt = typeof view.prompt === "string" ? view.prompt : view.prompt?.text;
  replaceContent(root,
    h("section", { class: "panel prompt-panel", "aria-labelledby": "fallback-actions" },
      h("h2", { id: "fallback-actions" }, t("table.your_options")),
      prompt ? h("p", { class: "prompt-text" }, prompt) : null,
      actions.length
        ? h("ul", { class: "actions" }, actions.map((action, i) => h("li", {},
          h("button", { type: "button", class: "action is-target", "data-focus-key": `fa-${i}`, onclick: () => emit(action) }, label(action)))))
        : h("p", { class: "empty" }, t("table.nothing_to_do"))),
    h("details", { class: "panel" }, h("summary", {}, t("table.raw_view")),
      h("pre", { class: "raw-view" }, JSON.stringify({ ...view, legal_actions: undefined }, null, 2))));
}
