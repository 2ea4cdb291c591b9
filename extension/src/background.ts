// The background: opens the panel from the toolbar button (Chromium's side panel, Firefox's sidebar). Everything
// else happens in the panel itself.
import { browserApi } from "./browser-api";

if (browserApi.sidePanel) {
  browserApi.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
} else if (browserApi.sidebarAction) {
  const sidebar = browserApi.sidebarAction;
  browserApi.action.onClicked.addListener(() => void sidebar.toggle());
}
