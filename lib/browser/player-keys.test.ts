import { describe, expect, it } from "vitest";
import { playerKeyAction, type KeyPress } from "@/lib/browser/player-keys";

const on = (tagName: string, extra: Partial<KeyPress["target"]> = {}) => ({
  tagName,
  isContentEditable: false,
  role: null,
  ...extra,
});
const press = (key: string, target = on("BODY"), modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target,
  ...modifiers,
});

describe("player keys", () => {
  it("k and Space play or pause, j and l skip, ? asks for help, on the page itself", () => {
    expect(playerKeyAction(press("k"))).toBe("toggle");
    expect(playerKeyAction(press(" "))).toBe("toggle");
    expect(playerKeyAction(press("j"))).toBe("back");
    expect(playerKeyAction(press("l"))).toBe("forward");
    expect(playerKeyAction(press("ArrowLeft"))).toBe("back");
    expect(playerKeyAction(press("ArrowRight"))).toBe("forward");
    expect(playerKeyAction(press("?"))).toBe("help");
    expect(playerKeyAction(press("x"))).toBeNull();
  });

  it("never while typing, nor with Ctrl, Cmd or Alt", () => {
    for (const field of [on("INPUT"), on("TEXTAREA"), on("SELECT"), on("DIV", { isContentEditable: true })]) {
      for (const key of ["k", " ", "j", "l", "?", "ArrowLeft"]) expect(playerKeyAction(press(key, field))).toBeNull();
    }
    expect(playerKeyAction(press("k", on("BODY"), { ctrlKey: true }))).toBeNull();
    expect(playerKeyAction(press("l", on("BODY"), { metaKey: true }))).toBeNull();
    expect(playerKeyAction(press("j", on("BODY"), { altKey: true }))).toBeNull();
  });

  it("leaves Space to buttons and links, and the arrows to whatever has focus", () => {
    expect(playerKeyAction(press(" ", on("BUTTON")))).toBeNull();
    expect(playerKeyAction(press(" ", on("A")))).toBeNull();
    expect(playerKeyAction(press("k", on("BUTTON")))).toBe("toggle");
    expect(playerKeyAction(press("ArrowRight", on("BUTTON", { role: "tab" })))).toBeNull();
    expect(playerKeyAction(press("ArrowLeft", on("A")))).toBeNull();
    expect(playerKeyAction(press("ArrowLeft", on("DIV")))).toBeNull();
  });
});
