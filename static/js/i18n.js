// UI texts from static/i18n/<lang>.json. English is the fallback for every key.
// Templates use {name} placeholders: t("lobby.joined", {seat: "Mankind"}).

export const LANGUAGES = ["en", "nl", "de", "ru"];
const STORAGE_KEY = "skirmish.lang";

const catalogs = {};
let current = "en";
const listeners = new Set();

async function fetchCatalog(lang) {
  if (!catalogs[lang]) {
    const response = await fetch(`/i18n/${lang}.json`);
    if (!response.ok) throw new Error(`i18n ${lang}: HTTP ${response.status}`);
    catalogs[lang] = await response.json();
  }
  return catalogs[lang];
}

/** The language to start with: a saved choice, else the browser's first supported one. */
export function preferredLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function language() {
  return current;
}

export async function setLanguage(lang, { remember = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  await fetchCatalog("en");
  await fetchCatalog(lang);
  current = lang;
  if (remember) localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  translateStatic(document);
  for (const listener of listeners) listener(lang);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function lookup(catalog, key) {
  let node = catalog;
  for (const part of key.split(".")) {
    if (node == null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Whether a translation exists for key (in the current language or English). */
export function has(key) {
  return lookup(catalogs[current] || {}, key) !== undefined || lookup(catalogs.en || {}, key) !== undefined;
}

/** The text for key with {placeholders} filled; `fallback` (or the key) when missing. */
export function t(key, params = {}, fallback) {
  let text = lookup(catalogs[current] || {}, key);
  if (text === undefined) text = lookup(catalogs.en || {}, key);
  if (text === undefined) text = fallback !== undefined ? fallback : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Fill every [data-i18n] element (text) and [data-i18n-aria] (aria-label) under root. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}
