// The part of the WebExtension API the extension uses, typed here (no @types/chrome in the project). Chromium and
// Firefox both offer it as `chrome`, with promises, in Manifest V3; Firefox's sidebar and Chromium's side panel
// are the one difference, and each is optional below.

export interface Tab {
  id?: number;
  windowId: number;
  active: boolean;
  url?: string;
}

export interface MessageSender {
  id?: string;
  tab?: Tab;
  frameId?: number;
}

interface Event<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

export interface BrowserApi {
  runtime: {
    id: string;
    getURL(path: string): string;
    sendMessage(message: unknown): Promise<unknown>;
    onMessage: Event<(message: unknown, sender: MessageSender, respond: (answer: unknown) => void) => boolean | void>;
  };
  tabs: {
    query(filter: { active?: boolean; currentWindow?: boolean; windowId?: number }): Promise<Tab[]>;
    sendMessage(tabId: number, message: unknown, options?: { frameId?: number }): Promise<unknown>;
    create(options: { url: string; active?: boolean }): Promise<Tab>;
    onActivated: Event<(info: { tabId: number; windowId: number }) => void>;
    onUpdated: Event<(tabId: number, change: { url?: string; status?: string }, tab: Tab) => void>;
  };
  windows: { getCurrent(): Promise<{ id?: number }> };
  storage: {
    local: {
      get(keys: string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string[]): Promise<void>;
    };
  };
  identity: {
    getRedirectURL(path?: string): string;
    launchWebAuthFlow(options: { url: string; interactive: boolean }): Promise<string | undefined>;
  };
  permissions: {
    request(permissions: { origins: string[] }): Promise<boolean>;
  };
  scripting: {
    executeScript(injection: { target: { tabId: number }; files: string[] }): Promise<unknown>;
  };
  action: { onClicked: Event<(tab: Tab) => void> };
  /** Chromium's side panel. */
  sidePanel?: { setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void> };
  /** Firefox's sidebar. */
  sidebarAction?: { toggle(): Promise<void> };
}

export const browserApi = (globalThis as unknown as { chrome: BrowserApi }).chrome;
