// The tab whose player the panel follows: the active tab of the panel's window when its content script answers,
// else the tab that last told its state. Messages from anything but this extension's content scripts, and
// malformed ones, are dropped.
import { browserApi, type MessageSender } from "./browser-api";
import { parsePlayerState, type PlayerState } from "./lib/messages";

export class Player {
  tabId: number | null = null;
  state: PlayerState | null = null;
  private windowId: number | null = null;

  constructor(private readonly changed: (state: PlayerState | null) => void) {
    browserApi.runtime.onMessage.addListener((message: unknown, sender: MessageSender) => {
      const state = parsePlayerState(message);
      const tab = sender.tab;
      if (!state || sender.id !== browserApi.runtime.id || tab?.id === undefined) return;
      // Another tab takes over when it is the one in front in the panel's window.
      if (this.tabId !== null && this.tabId !== tab.id && !(tab.active && tab.windowId === this.windowId)) return;
      this.take(tab.id, state);
    });
    browserApi.tabs.onActivated.addListener(({ tabId, windowId }) => {
      if (this.windowId === null || windowId === this.windowId) void this.ask(tabId);
    });
  }

  async start() {
    this.windowId = (await browserApi.windows.getCurrent()).id ?? null;
    const tabs = await browserApi.tabs.query(
      this.windowId === null ? { currentWindow: true } : { windowId: this.windowId },
    );
    // The panel's own window first, its front tab first; then any window's (a panel opened as a tab of its own).
    const elsewhere = (await browserApi.tabs.query({})).filter((tab) => tab.windowId !== this.windowId);
    const ordered = [...tabs, ...elsewhere].sort(
      (a, b) =>
        Number(b.windowId === this.windowId) - Number(a.windowId === this.windowId) ||
        Number(b.active) - Number(a.active),
    );
    for (const tab of ordered) if (tab.id !== undefined && (await this.ask(tab.id))) return;
    this.changed(null);
  }

  /** Asks a tab's content script for its state; false when it has none (or is not a page). */
  async ask(tabId: number): Promise<boolean> {
    const answer = await browserApi.tabs.sendMessage(tabId, { type: "verbatim:ask" }).catch(() => null);
    const state = parsePlayerState(answer);
    if (state) this.take(tabId, state);
    return state !== null;
  }

  /** The active tab's player after putting the content script there (the person's click grants the page). */
  async lookAtActiveTab(): Promise<boolean> {
    const [tab] = await browserApi.tabs.query(
      this.windowId === null ? { active: true, currentWindow: true } : { active: true, windowId: this.windowId },
    );
    if (tab?.id === undefined) return false;
    if (await this.ask(tab.id)) return true;
    try {
      await browserApi.scripting.executeScript({ target: { tabId: tab.id }, files: ["content.js"] });
    } catch {
      return false;
    }
    return this.ask(tab.id);
  }

  seek(seconds: number) {
    if (this.tabId === null) return;
    void browserApi.tabs
      .sendMessage(this.tabId, { type: "verbatim:seek", time: Math.max(0, seconds) })
      .then((answer) => {
        const state = parsePlayerState(answer);
        if (state && this.tabId !== null) this.take(this.tabId, state);
      })
      .catch(() => undefined);
  }

  private take(tabId: number, state: PlayerState) {
    this.tabId = tabId;
    this.state = state;
    this.changed(state);
  }
}
