// The router: "#/" is the lobby, "#/match/<id>" a table (played or watched).
// Each page is a module with mount(root) returning an unmount function.

import { LANGUAGES, language, onLanguageChange, preferredLanguage, setLanguage, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountMatch } from "./match.js";

const main = document.getElementById("main");
let unmount = null;

function parseRoute() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const match = hash.match(/^\/match\/([^/?#]+)/);
  if (match) return { page: "match", id: decodeURIComponent(match[1]) };
  return { page: "lobby" };
}

function route() {
  if (unmount) unmount();
  unmount = null;
  main.replaceChildren();
  const where = parseRoute();
  unmount = where.page === "match" ? mountMatch(main, where.id) : mountLobby(main);
  document.body.dataset.page = where.page;
  document.title = t("app.title");
}

function setupLanguagePicker() {
  const select = document.getElementById("lang-select");
  select.value = language();
  select.addEventListener("change", () => {
    if (LANGUAGES.includes(select.value)) setLanguage(select.value, { remember: true });
  });
  onLanguageChange((lang) => { select.value = lang; });
}

function setupSkipLink() {
  // The hash is the route, so the skip link moves focus itself instead of changing it.
  document.querySelector(".skip-link")?.addEventListener("click", (event) => {
    event.preventDefault();
    main.focus();
  });
}

async function start() {
  setupSkipLink();
  await setLanguage(preferredLanguage());
  setupLanguagePicker();
  window.addEventListener("hashchange", route);
  route();
}

start();
