// "Show CI Failures" offered when the server says the branch's last CI run failed
// (`faultlens/ciFailed`, server/ci_offer.py): a status-bar item and one message, each
// running the command on that run.
import * as vscode from "vscode";

import { ClientCommands } from "./common/constants";

export interface CIOffer {
  /** The run to show (the first failed one). */
  url: string;
  text: string;
  tooltip: string;
  message: string;
}

/** What to offer for a `faultlens/ciFailed` notification; undefined for one that says nothing usable. */
export function ciOffer(params: unknown): CIOffer | undefined {
  if (!params || typeof params !== "object") {
    return undefined;
  }
  const p = params as { branch?: unknown; runs?: unknown };
  const runs: { name: string; url: string }[] = [];
  for (const run of Array.isArray(p.runs) ? p.runs : []) {
    const r = run && typeof run === "object" ? (run as { name?: unknown; url?: unknown }) : {};
    if (typeof r.url === "string" && r.url.startsWith("https://")) {
      runs.push({ name: typeof r.name === "string" && r.name !== "" ? r.name : "CI", url: r.url });
    }
  }
  if (runs.length === 0) {
    return undefined;
  }
  const branch = typeof p.branch === "string" && p.branch !== "" ? p.branch : "this branch";
  const names = runs.map((r) => r.name).join(", ");
  return {
    url: runs[0].url,
    text: "$(error) CI failed",
    tooltip: `faultlens: the last CI run of ${branch} failed (${names}): show its failures here`,
    message: `faultlens: the last CI run of ${branch} failed (${names}).`,
  };
}

export const SHOW_CI = "Show CI Failures";

/** The status-bar item and the message; the item goes once the failures are shown. */
export class CIOfferView implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem("faultlens.ci", vscode.StatusBarAlignment.Left, 9);
    this.item.name = "faultlens CI";
  }

  /** Offer the command for this notification (nothing for one without a run). */
  async offer(params: unknown): Promise<void> {
    const offer = ciOffer(params);
    if (!offer) {
      return;
    }
    this.item.text = offer.text;
    this.item.tooltip = offer.tooltip;
    this.item.command = { title: SHOW_CI, command: ClientCommands.showCI, arguments: [offer.url] };
    this.item.show();
    const pick = await vscode.window.showInformationMessage(offer.message, SHOW_CI);
    if (pick === SHOW_CI) {
      await vscode.commands.executeCommand(ClientCommands.showCI, offer.url);
    }
  }

  /** The failures were shown: the offer is taken. */
  taken(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
