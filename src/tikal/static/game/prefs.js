// The player's preferences, kept in this browser (localStorage "tikal.prefs"): how fast
// the bots play, animations, sounds, and whether "End turn" asks first while action
// points are left. Unknown or broken values fall back to the defaults.
const KEY = "tikal.prefs";

// Sounds are off until asked for: a page that beeps unasked is worse than a silent one.
// So are notifications: the browser asks for them once the player turns them on.
export const DEFAULTS = Object.freeze({ pace: "normal", motion: true, sound: false, confirmEnd: true, notify: false });
export const PACES = ["fast", "normal", "slow"];

function load() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { saved = {}; }
  const out = { ...DEFAULTS };
  for (const [name, fallback] of Object.entries(DEFAULTS)) {
    const value = saved[name];
    if (typeof value === typeof fallback && (name !== "pace" || PACES.includes(value))) out[name] = value;
  }
  return out;
}

export const prefs = load();
const listeners = [];

// Call `f(name)` whenever a preference changes.
export function onPrefChange(f) { listeners.push(f); }

export function setPref(name, value) {
  if (!(name in DEFAULTS) || prefs[name] === value) return;
  prefs[name] = value;
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch (e) { /* private mode: this page only */ }
  applyMotion();
  for (const f of listeners) f(name);
}

// Animations off: app.css stops its animations under html.no-motion, marks.js its slides.
export function applyMotion() {
  document.documentElement.classList.toggle("no-motion", !prefs.motion);
}

export const motionWanted = () => prefs.motion && !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
