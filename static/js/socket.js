// The match WebSocket (docs/protocol.md): hello with the last version seen, complete views
// in `state` frames, ackable `act` frames, automatic reconnect with resync.
//
// Frames are kept in the order the server sends them; a `state` whose version is not newer
// than the one shown is dropped (a duplicate), anything newer replaces the view whole.

const PING_EVERY_MS = 15000;
const SILENCE_LIMIT_MS = 40000;
const FATAL_CODES = new Set(["match_not_found", "not_authorized", "bad_frame", "frame_too_large"]);

function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

// Large frames may come as binary raw DEFLATE, compressed once per audience by the server
// (docs/protocol.md §1.3); we ask for that only where the browser can inflate it.
const CAN_INFLATE = typeof DecompressionStream === "function";

async function frameText(data) {
  if (typeof data === "string") return data;
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

function socketUrl(matchId) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/matches/${encodeURIComponent(matchId)}`;
}

export class MatchSocket {
  /**
   * handlers: onWelcome(frame), onState(frame, {gap}), onAck(frame), onError(frame),
   * onPresence(frame), onClock(frame) (turn timer; display only), onStatus(status) with status
   * "connecting" | "open" | "offline" | "closed", onPending(list of {id, action, version}).
   */
  constructor(matchId, secret, handlers) {
    this.matchId = matchId;
    this.secret = secret || null;
    this.handlers = handlers;
    this.version = null;
    this.pending = new Map();
    this.ws = null;
    this.stopped = false;
    this.attempt = 0;
    this.status = "connecting";
    this.everOpen = false;
    this.lastFrameAt = 0;
    this.timers = { retry: null, ping: null };
    this.onOnline = () => this.reconnectNow();
    this.onOffline = () => this.drop("offline");
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
  }

  start() {
    this.stopped = false;
    this.connect();
    this.timers.ping = setInterval(() => this.heartbeat(), PING_EVERY_MS / 3);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timers.retry);
    clearInterval(this.timers.ping);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    this.ws = null;
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.handlers.onStatus?.(status, this.everOpen);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timers.retry);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.onmessage = null;
      try { this.ws.close(); } catch { /* already closed */ }
    }
    this.setStatus(this.everOpen ? "offline" : "connecting");
    const ws = new WebSocket(socketUrl(this.matchId));
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    // Frames are handled in arrival order, though a compressed one inflates asynchronously.
    let inOrder = Promise.resolve();
    this.lastFrameAt = Date.now();
    this.helloPending = true;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      const hello = { type: "hello", secret: this.secret, version: this.version };
      if (CAN_INFLATE) hello.compress = "deflate-raw";
      this.send(hello);
    };
    ws.onmessage = (message) => {
      if (ws !== this.ws) return;
      this.lastFrameAt = Date.now();
      inOrder = inOrder
        .then(() => frameText(message.data))
        .then((text) => {
          if (ws !== this.ws) return;
          let frame;
          try {
            frame = JSON.parse(text);
          } catch {
            return;
          }
          this.receive(frame);
        })
        .catch(() => { /* an unreadable frame is skipped; a version gap resyncs */ });
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    if (this.stopped) return;
    this.setStatus(this.everOpen ? "offline" : "connecting");
    const delay = Math.min(4000, 250 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    clearTimeout(this.timers.retry);
    this.timers.retry = setTimeout(() => this.connect(), delay);
  }

  /** The network is gone (or the socket is silent): close now and retry with backoff. */
  drop() {
    if (this.stopped) return;
    if (this.ws) {
      this.ws.onclose = null;
      try { this.ws.close(); } catch { /* already closed */ }
    }
    this.scheduleReconnect();
  }

  reconnectNow() {
    if (this.stopped) return;
    this.attempt = 0;
    this.connect();
  }

  heartbeat() {
    if (this.stopped || !this.ws) return;
    if (this.ws.readyState === WebSocket.OPEN) {
      if (Date.now() - this.lastFrameAt > SILENCE_LIMIT_MS) this.drop();
      else if (Date.now() - this.lastFrameAt > PING_EVERY_MS) this.send({ type: "ping" });
    }
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  receive(frame) {
    switch (frame.type) {
      case "welcome":
        this.attempt = 0;
        this.everOpen = true;
        this.setStatus("open");
        this.handlers.onWelcome?.(frame);
        break;
      case "state":
        this.receiveState(frame);
        break;
      case "ack":
        this.pending.delete(frame.id);
        this.handlers.onPending?.([...this.pending.values()]);
        this.handlers.onAck?.(frame);
        break;
      case "error":
        if (frame.id) {
          this.pending.delete(frame.id);
          this.handlers.onPending?.([...this.pending.values()]);
        }
        this.handlers.onError?.(frame);
        if (!frame.id && FATAL_CODES.has(frame.code) && this.helloPending && !this.stopped) {
          this.stop(); // retrying cannot help (unless the page itself reconnects differently)
          this.setStatus("closed");
        }
        break;
      case "presence":
        this.handlers.onPresence?.(frame);
        break;
      case "clock":
        this.handlers.onClock?.(frame);
        break;
      default:
        break; // pong and frames this client does not know
    }
  }

  receiveState(frame) {
    const firstAfterHello = this.helloPending;
    this.helloPending = false;
    if (!this.everOpen) {
      this.everOpen = true;
      this.setStatus("open");
    }
    const version = frame.version;
    if (this.version !== null && version <= this.version && !firstAfterHello) return;
    if (this.version !== null && version > this.version + 1 && !firstAfterHello) {
      // A gap while connected: we missed frames. Say hello again with our version; the
      // server answers with the events since then and the full view.
      this.reconnectNow();
      return;
    }
    const gap = firstAfterHello && this.version !== null && version > this.version;
    this.version = version;
    if (firstAfterHello) this.resendPending(version);
    this.handlers.onState?.(frame, { gap, resync: firstAfterHello });
  }

  /** After a reconnect, resend intents the server never acked if the position is unchanged. */
  resendPending(version) {
    for (const [id, item] of this.pending) {
      if (item.version === version) this.send({ type: "act", id, version: item.version, action: item.action });
      else this.pending.delete(id);
    }
    this.handlers.onPending?.([...this.pending.values()]);
  }

  /** Send an intent; it stays pending until the server acks or refuses it. */
  act(action) {
    const id = newId();
    const item = { id, action, version: this.version };
    this.pending.set(id, item);
    this.send({ type: "act", id, version: this.version, action });
    this.handlers.onPending?.([...this.pending.values()]);
    return id;
  }
}
