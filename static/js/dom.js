// A tiny element builder: h("button", {class: "x", onclick: f}, "text", child).
// Strings become text nodes (never HTML), so names from other players cannot inject markup.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace root's content, keeping keyboard focus on the element with the same data-focus-key. */
export function replaceContent(root, ...children) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.focusKey : undefined;
  const caret = key && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  root.replaceChildren();
  append(root, children);
  if (key) {
    // The same control again, else the place the new decision is asked (data-focus-fallback).
    const again = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
      || root.querySelector("[data-focus-fallback]");
    if (again) again.focus({ preventScroll: true });
    if (again && caret && typeof again.setSelectionRange === "function") again.setSelectionRange(...caret);
  }
}
