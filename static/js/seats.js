// Seat secrets live in localStorage keyed by match id — never in the URL.
// An invite link carries only the match id; whoever holds the secret plays the seat.

const PREFIX = "skirmish.seat.";
const NAME_KEY = "skirmish.name";

/** {seat, secret} for this match, or null when this browser only watches it. */
export function seatFor(matchId) {
  try {
    const raw = localStorage.getItem(PREFIX + matchId);
    const data = raw ? JSON.parse(raw) : null;
    return data && data.secret ? data : null;
  } catch {
    return null;
  }
}

export function rememberSeat(matchId, seat, secret) {
  localStorage.setItem(PREFIX + matchId, JSON.stringify({ seat, secret }));
}

export function forgetSeat(matchId) {
  localStorage.removeItem(PREFIX + matchId);
}

export function displayName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function rememberDisplayName(name) {
  if (name) localStorage.setItem(NAME_KEY, name);
  else localStorage.removeItem(NAME_KEY);
}
