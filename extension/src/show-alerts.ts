// "Watch this channel in an alert": the page's show (a YouTube channel, a podcast's feed) given to one of the
// account's alerts of chosen follows in one click. POST /v1/alerts/{id}/follows follows the show first when the
// account does not follow it yet, so its next episodes are matched.
import { apiJson, serverOf } from "./api";

interface Alert {
  id: string;
  name: string;
  scope: { kind: string };
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export class ShowAlerts {
  private show: string | null = null;
  private lang = "en";
  private name = "this channel";

  constructor(
    private readonly say: (text: string) => void,
    private readonly message: (error: unknown) => string,
  ) {
    $("watch-show").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.add();
    });
  }

  /** Offered beside a transcript whose page names its show; hidden otherwise. */
  async offer(show: string | null, name: string | null, lang: string) {
    this.hide();
    this.show = show;
    this.lang = lang;
    this.name = name ?? (show?.startsWith("https://www.youtube.com/") ? "this channel" : "this show");
    if (!show) return;
    let alerts: Alert[];
    try {
      alerts = (await apiJson<{ alerts: Alert[] }>("/v1/alerts")).body.alerts.filter((a) => a.scope.kind === "follows");
    } catch {
      return; // the offer is an extra: the transcript stands without it
    }
    if (this.show !== show) return;
    for (const id of ["watch-show-name", "watch-none-name"]) $(id).textContent = this.name;
    if (alerts.length === 0) {
      $<HTMLAnchorElement>("watch-none-link").href = `${await serverOf()}/dashboard/alerts`;
      $("watch-none").hidden = false;
      return;
    }
    const select = $<HTMLSelectElement>("watch-alert");
    select.replaceChildren(
      ...alerts.map((alert) => {
        const option = document.createElement("option");
        option.value = alert.id;
        option.textContent = alert.name;
        return option;
      }),
    );
    $("watch-show").hidden = false;
  }

  hide() {
    this.show = null;
    $("watch-show").hidden = true;
    $("watch-none").hidden = true;
  }

  private async add() {
    const select = $<HTMLSelectElement>("watch-alert");
    const button = $<HTMLButtonElement>("watch-add");
    if (!this.show || !select.value) return;
    button.disabled = true;
    try {
      const { body } = await apiJson<Alert>(`/v1/alerts/${encodeURIComponent(select.value)}/follows`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: this.show, lang: this.lang }),
      });
      this.say(`The alert “${body.name}” now watches ${this.name}: its new episodes are matched.`);
    } catch (error) {
      this.say(this.message(error));
    } finally {
      button.disabled = false;
    }
  }
}
