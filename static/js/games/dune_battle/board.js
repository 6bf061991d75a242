// The board: the storm track, the territories with their sectors and forces, and each
// faction's counters, leaders and (for its owner only, as the view allows) hand and traitors.

import { h } from "../../dom.js";
import { cardKind, cardName, dt, factionName, leaderName, sectorsText, territoryName } from "./words.js";

const SECTORS = 18;

function tokens(normal, elite, faction) {
  const out = [];
  if (normal) out.push(h("span", { class: ["db-tokens", `db-f-${faction}`], title: dt("ui.normal_tokens", { n: normal }) },
    h("span", { class: "db-token", "aria-hidden": "true" }), `×${normal}`));
  if (elite) out.push(h("span", { class: ["db-tokens", "is-elite", `db-f-${faction}`], title: dt("ui.elite_tokens", { n: elite }) },
    h("span", { class: "db-token elite", "aria-hidden": "true" }), `×${elite}`));
  return out;
}

/** Storm track 1–18: the storm sector and the current battle zone are marked. */
function stormTrack(view) {
  const battleSectors = new Set(view.battle?.sectors || []);
  const cells = [];
  for (let n = 1; n <= SECTORS; n += 1) {
    const storm = view.storm_sector === n;
    cells.push(h("li", {
      class: [storm && "is-storm", battleSectors.has(n) && "is-battle"],
      "aria-current": storm ? "location" : null,
      title: storm ? dt("ui.storm_here") : null,
    }, String(n)));
  }
  return h("div", { class: "db-storm" },
    h("p", { class: "db-storm-label" }, dt("ui.storm_at", { n: view.storm_sector })),
    h("ol", { class: "db-storm-track", "aria-label": dt("ui.storm_track") }, cells));
}

function territoryPanel(view, terr) {
  const here = (view.forces || []).filter((f) => f.territory === terr.id);
  const inBattle = view.battle?.territory === terr.id;
  const battleSectors = new Set(inBattle ? view.battle.sectors : []);
  const sectors = terr.sectors.map((n) => {
    const forces = here.filter((f) => f.sector === n);
    const storm = view.storm_sector === n;
    return h("li", {
      class: ["db-sector", storm && "is-storm", battleSectors.has(n) && "is-battle"],
      dataset: { sector: n },
    },
    h("span", { class: "db-sector-no" }, dt("ui.sector_short", { n }), storm ? h("span", { class: "db-storm-tag" }, ` ${dt("ui.storm")}`) : null),
    forces.length
      ? h("ul", { class: "db-forces" }, forces.map((f) => h("li", { class: `db-f-${f.faction}`, dataset: { faction: f.faction } },
        h("span", { class: "db-force-name" }, factionName(f.faction)), " ", tokens(f.normal, f.elite, f.faction),
        f.advisor ? h("span", { class: "db-advisor" }, ` (${dt("ui.advisors")})`) : null)))
      : h("span", { class: "db-empty" }, "—"));
  });
  return h("section", { class: ["db-territory", inBattle && "is-battle", `terrain-${terr.terrain}`], "aria-labelledby": `terr-${terr.id}`, dataset: { territory: terr.id } },
    h("div", { class: "db-territory-head" },
      h("h3", { id: `terr-${terr.id}` }, territoryName(view, terr.id)),
      h("span", { class: "db-terrain" }, dt(`terrain.${terr.terrain}`, {}, terr.terrain)),
      terr.spice ? h("span", { class: "db-spice" }, dt("ui.spice_here", { n: terr.spice })) : null),
    h("ol", { class: "db-sectors", "aria-label": sectorsText(terr.sectors) }, sectors));
}

/** Territories worth drawing: with forces, with spice, or the battle's own. */
export function boardPanel(view) {
  const shown = (view.territories || []).filter((terr) => terr.spice
    || view.battle?.territory === terr.id
    || (view.forces || []).some((f) => f.territory === terr.id));
  const fields = (view.battlefields || []).map((b) => h("li", {},
    dt("ui.battlefield", { territory: territoryName(view, b.territory), sectors: sectorsText(b.sectors), factions: b.factions.map(factionName).join(" · ") })));
  return h("section", { class: "panel db-board", "aria-labelledby": "db-board-title" },
    h("h2", { id: "db-board-title" }, dt("ui.board")),
    stormTrack(view),
    h("div", { class: "db-territories" }, shown.map((terr) => territoryPanel(view, terr))),
    fields.length
      ? h("div", { class: "db-battlefields" }, h("h3", {}, dt("ui.battlefields")), h("ul", {}, fields))
      : h("p", { class: "db-muted" }, dt("ui.no_battlefields")));
}

function leaderChip(view, leader) {
  const captured = leader.captured || leader.controller !== leader.faction;
  return h("li", {
    class: ["db-leader", `zone-${leader.zone}`, captured && "is-captured", `db-f-${leader.faction}`],
    dataset: { leader: leader.id, zone: leader.zone },
  },
  h("span", { class: "db-leader-name" }, leader.name || leaderName(view, leader.id)),
  h("span", { class: "db-strength", title: dt("ui.strength") }, String(leader.strength)),
  leader.zone === "territory" ? h("span", { class: "db-tag" }, dt("ui.leader_in", { territory: territoryName(view, leader.territory) })) : null,
  captured ? h("span", { class: "db-tag warn" }, dt("ui.captured_from", { faction: factionName(leader.faction) })) : null);
}

function hiddenChip(hidden) {
  return h("li", { class: ["db-leader", "is-hidden", `zone-${hidden.zone}`, `db-f-${hidden.faction}`] },
    h("span", { class: "db-leader-name" }, dt("ui.hidden_leader", { faction: factionName(hidden.faction) })));
}

/** A faction's leaders by where they are: available, fought here, in the tanks, captured. */
function leaderGroups(view, faction) {
  const held = (view.leaders || []).filter((l) => l.controller === faction);
  const hidden = (view.hidden_leaders || []).filter((l) => l.controller === faction);
  const groups = [
    ["available", held.filter((l) => l.zone !== "tanks" && l.controller === l.faction), hidden.filter((l) => l.zone !== "tanks" && l.controller === l.faction)],
    ["captured", held.filter((l) => l.zone !== "tanks" && l.controller !== l.faction), hidden.filter((l) => l.zone !== "tanks" && l.controller !== l.faction)],
    ["tanks", held.filter((l) => l.zone === "tanks"), hidden.filter((l) => l.zone === "tanks")],
  ];
  return groups.filter(([, shown, secret]) => shown.length || secret.length).map(([name, shown, secret]) =>
    h("div", { class: ["db-leader-group", `group-${name}`] },
      h("h4", {}, dt(`ui.leaders_${name}`)),
      h("ul", { class: "db-leaders" }, shown.map((l) => leaderChip(view, l)), secret.map(hiddenChip))));
}

function cardChip(id) {
  const kind = cardKind(id);
  return h("li", { class: ["db-card", `kind-${kind}`], dataset: { card: id } },
    h("span", { class: "db-card-name" }, cardName(id)),
    h("span", { class: "db-card-kind" }, dt(`card_kinds.${kind}`, {}, "")));
}

function factionPanel(view, faction) {
  const info = view.factions?.[faction] || {};
  const mine = view.viewer === faction;
  const active = view.turn === faction;
  const counts = [
    dt("ui.hand_count", { n: info.hand_count ?? 0 }),
    dt("ui.tanks", { normal: info.tanks?.normal ?? 0, elite: info.tanks?.elite ?? 0 }),
    dt("ui.reserves", { normal: info.reserves?.normal ?? 0, elite: info.reserves?.elite ?? 0 }),
  ];
  if (mine && info.spice !== undefined) counts.push(dt("ui.spice", { n: info.spice }));
  if (mine && info.kh_counter !== undefined) counts.push(dt("ui.kh_counter", { n: info.kh_counter }));
  if (info.kh_in_tanks) counts.push(dt("ui.kh_in_tanks")); // public: it died in a revealed plan
  if (faction === "atreides" && info.special_karama_used) counts.push(dt("ui.special_karama_spent"));
  return h("section", {
    class: ["panel", "db-faction", `db-f-${faction}`, mine && "is-mine", active && "is-active"],
    "aria-labelledby": `db-fac-${faction}`, dataset: { faction },
  },
  h("h3", { id: `db-fac-${faction}` }, factionName(faction),
    mine ? h("span", { class: "db-you" }, ` (${dt("ui.you")})`) : null,
    active ? h("span", { class: "db-turn-tag" }, dt("ui.to_act")) : null),
  h("ul", { class: "db-counts" }, counts.map((c) => h("li", {}, c))),
  leaderGroups(view, faction),
  mine && info.hand ? h("div", { class: "db-own db-own-hand" },
    h("h4", { id: "db-hand-title" }, dt("ui.your_hand", { n: info.hand.length })),
    info.hand.length ? h("ul", { class: "db-cards", "aria-labelledby": "db-hand-title" }, info.hand.map(cardChip)) : h("p", { class: "db-muted" }, dt("ui.empty_hand"))) : null,
  mine && info.traitors?.length ? h("div", { class: "db-own db-own-traitors" },
    h("h4", {}, dt("ui.your_traitors")),
    h("ul", { class: "db-leaders" }, info.traitors.map((id) => h("li", { class: "db-leader", dataset: { traitor: id } }, leaderName(view, id))))) : null);
}

export function factionsPanel(view) {
  const order = view.options?.factions || view.storm_order || [];
  return h("div", { class: "db-factions" }, order.map((f) => factionPanel(view, f)),
    h("p", { class: "db-muted db-deck" }, dt("ui.deck", { n: view.deck_count ?? 0 }), " · ",
      dt("ui.discard", { cards: (view.discard || []).length ? view.discard.map(cardName).join(", ") : dt("ui.none") })));
}
