// The turn timer at the table: a countdown to the deadline of the decision now owed, as the
// server announces it in `clock` frames (docs/protocol.md §3.2). Display only: the server
// plays the default action (or records a forfeit) when the deadline passes; the client never
// decides anything from this countdown.
//
// Clock skew: the deadline is in server time. At each frame we take
// offset = server_time − Date.now(), so "now on the server" is Date.now() + offset, and
// remaining = deadline − (Date.now() + offset). Network latency makes it read a little long,
// never short.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const URGENT_MS = 10_000;
const TICK_MS = 250;

/** Whole seconds as m:ss (h:mm:ss from an hour on). */
export function formatClock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** Milliseconds left before `clock.deadline` on the server's clock, or null without one. */
export function remainingMs(clock, now = Date.now()) {
  const deadline = clock?.deadline ? Date.parse(clock.deadline) : NaN;
  if (!Number.isFinite(deadline)) return null;
  return deadline - (now + (clock.offset || 0));
}

export class TurnClock {
  constructor() {
    this.clock = null; // the last clock frame, plus its offset
    this.context = { version: null, mine: false, over: false };
    this.announced = null; // the version whose "hurry" was announced
    this.timer = null;
    this.label = h("span", { class: "turn-clock-label" });
    this.time = h("span", { class: "turn-clock-time", role: "timer" });
    // Said once per decision, to the seat that owes it, when ten seconds are left.
    this.hurry = h("span", { class: "visually-hidden", "aria-live": "assertive" });
    this.el = h("div", { class: "turn-clock", hidden: true }, this.label, " ", this.time, this.hurry);
  }

  /** A `clock` frame arrived: remember it and the server's clock offset at receipt. */
  receive(frame) {
    const serverTime = Date.parse(frame.server_time);
    const offset = Number.isFinite(serverTime) ? serverTime - Date.now() : 0;
    this.clock = { ...frame, offset };
    this.draw();
  }

  /** What the table shows: its version, whether this viewer owes the decision, whether it is over. */
  update(context) {
    this.context = { ...this.context, ...context };
    this.draw();
  }

  visible() {
    const { clock, context } = this;
    return Boolean(clock?.deadline) && !context.over;
  }

  /** A deadline for an older version than the table shows: the new one follows its state. */
  stale() {
    const version = this.context.version;
    return version !== null && this.clock.version < version;
  }

  draw() {
    if (!this.visible()) {
      this.el.hidden = true;
      delete this.el.dataset.remaining;
      this.stopTicking();
      return;
    }
    const left = Math.max(0, remainingMs(this.clock));
    const seconds = Math.ceil(left / 1000);
    const stale = this.stale();
    const mine = this.context.mine;
    const urgent = mine && !stale && left < URGENT_MS;
    this.el.hidden = false;
    // Kept in place (no jump of the table below) but blank until the fresh frame comes.
    this.el.classList.toggle("is-stale", stale);
    this.el.classList.toggle("is-mine", mine);
    this.el.classList.toggle("is-urgent", urgent);
    this.el.dataset.remaining = String(seconds);
    this.el.dataset.version = String(this.clock.version);
    this.label.textContent = mine ? t("match.clock_yours") : t("match.clock_label");
    const text = formatClock(seconds);
    if (this.time.textContent !== text) this.time.textContent = text;
    if (urgent && left > 0 && this.announced !== this.clock.version) {
      this.announced = this.clock.version;
      this.hurry.textContent = t("match.clock_hurry", { n: seconds });
    } else if (!urgent && this.hurry.textContent) {
      this.hurry.textContent = "";
    }
    this.startTicking();
  }

  startTicking() {
    if (this.timer === null) this.timer = setInterval(() => this.draw(), TICK_MS);
  }

  stopTicking() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  stop() {
    this.stopTicking();
  }
}
