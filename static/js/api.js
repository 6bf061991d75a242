// REST calls under /api (docs/protocol.md). Each returns parsed JSON or throws ApiError.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(`/api${path}`, init);
  } catch (err) {
    throw new ApiError(0, "network", err.message);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    // Problem JSON: {status, code, detail}.
    const code = data?.code || "http_error";
    const detail = data?.detail;
    const message = typeof detail === "string" ? detail : data?.message || `HTTP ${response.status}`;
    throw new ApiError(response.status, code, message);
  }
  return data;
}

export const listGames = () => request("GET", "/games");
export const listMatches = () => request("GET", "/matches");
export const getMatch = (id) => request("GET", `/matches/${encodeURIComponent(id)}`);
export const getLog = (id) => request("GET", `/matches/${encodeURIComponent(id)}/log`);

/**
 * Create a match; returns {match id, seat, secret} — the secret is shown only this once.
 * `clock` (e.g. {turn_seconds: 60}) gives the match a turn timer.
 */
export const createMatch = ({ game, options = {}, seat, name, bot = null, clock = null }) =>
  request("POST", "/matches", {
    game, options, seat: seat === "random" ? null : seat, name,
    ...(bot ? { bot } : {}), ...(clock ? { clock } : {}),
  });

/** Take an open seat of a match (seat null: the first free); returns {match_id, seat, secret}. */
export const joinMatch = (id, { name, seat }) =>
  request("POST", `/matches/${encodeURIComponent(id)}/seats`, { name, seat });
