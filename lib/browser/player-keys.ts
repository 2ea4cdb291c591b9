// The keys that drive a transcript's player (the dashboard's viewer and public pages): what a key press
// means, decided from the press alone. Pure and browser-safe; components/transcript/player-keys.tsx listens.

export type PlayerKeyAction = "toggle" | "back" | "forward" | "help";

/** Seconds a skip moves. */
export const SKIP_SECONDS = 5;

/** The keys, as the help dialog lists them. */
export const PLAYER_KEYS: readonly { keys: string[]; action: string }[] = [
  { keys: ["k", "Space"], action: "Play or pause" },
  { keys: ["j", "←"], action: `Back ${SKIP_SECONDS} seconds` },
  { keys: ["l", "→"], action: `Forward ${SKIP_SECONDS} seconds` },
  { keys: ["?"], action: "Show these keys" },
];

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Where the press happened: tag name (upper case), whether it is editable text, its role. */
  target: { tagName: string; isContentEditable: boolean; role: string | null; type?: string | null };
}

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);
/** Controls that Space (and the arrows) already work: a press there is theirs. */
const CONTROLS = new Set(["BUTTON", "A", "SUMMARY", "IFRAME", "AUDIO", "VIDEO"]);
const OWN_ARROWS = new Set(["tab", "tablist", "slider", "listbox", "menu", "menuitem", "radio"]);

/**
 * What a key press asks of the player; null when it is not one of ours or belongs to what has focus: typing
 * in a field, a shortcut with Ctrl/Cmd/Alt, Space on a button or link, the arrows where focus moves with them
 * (tabs, the transcript's timestamps) or where a media element seeks itself.
 */
export function playerKeyAction(press: KeyPress): PlayerKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const { tagName, isContentEditable, role } = press.target;
  if (isContentEditable || TYPING.has(tagName)) return null;
  const onControl = CONTROLS.has(tagName) || (role !== null && OWN_ARROWS.has(role));
  switch (press.key) {
    case "?":
      return "help";
    case "k":
    case "K":
      return "toggle";
    case " ":
      return onControl ? null : "toggle";
    case "j":
    case "J":
      return "back";
    case "l":
    case "L":
      return "forward";
    case "ArrowLeft":
      return onControl || tagName !== "BODY" ? null : "back";
    case "ArrowRight":
      return onControl || tagName !== "BODY" ? null : "forward";
    default:
      return null;
  }
}
