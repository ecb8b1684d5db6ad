// The status bar item: failure counts by category, from `faultlens/failures` when the
// server answers, else from the faultlens diagnostics VS Code holds.
import * as vscode from "vscode";

import { ClientCommands, DIAGNOSTIC_SOURCE, DISPLAY_NAME, FAILURE_TYPES, INSTALL_COMMAND } from "./common/constants";
import type { ServerSession, SessionState } from "./common/server";

const DEGRADED = new Set(["mcp_startup", "plugin_startup", "prompt_delivery"]);

/** The failure_type of every failure in a `faultlens/failures` answer (tolerant of shape). */
export function typesFromFailures(answer: unknown): string[] | undefined {
  const list = Array.isArray(answer)
    ? answer
    : answer && typeof answer === "object" && Array.isArray((answer as { failures?: unknown }).failures)
      ? (answer as { failures: unknown[] }).failures
      : undefined;
  if (!list) {
    return undefined;
  }
  const out: string[] = [];
  for (const item of list) {
    if (!item || typeof item !== "object") {
      continue;
    }
    const rec = (item as { record?: unknown }).record ?? item;
    const type = (rec as { failure_type?: unknown }).failure_type;
    if (typeof type === "string") {
      out.push(type);
    }
  }
  return out;
}

interface DiagnosticLike {
  source?: string;
  code?: string | number | { value: string | number };
}

/** The failure_type of every faultlens diagnostic. */
export function typesFromDiagnostics(all: Iterable<readonly DiagnosticLike[]>): string[] {
  const out: string[] = [];
  for (const diagnostics of all) {
    for (const d of diagnostics) {
      // "faultlens", or "faultlens: <task>" with the server's taskInSource setting
      const ours = d.source === DIAGNOSTIC_SOURCE || !!d.source?.startsWith(`${DIAGNOSTIC_SOURCE}: `);
      if (!ours || d.code === undefined) {
        continue;
      }
      const code = typeof d.code === "object" ? d.code.value : d.code;
      out.push(String(code));
    }
  }
  return out;
}

/** Counts by category, in the taxonomy's order (unknown categories last). */
export function countByType(types: Iterable<string>): [string, number][] {
  const counts = new Map<string, number>();
  for (const t of types) {
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const order = (t: string): number => {
    const i = FAILURE_TYPES.indexOf(t);
    return i < 0 ? FAILURE_TYPES.length : i;
  };
  return [...counts.entries()].sort((a, b) => order(a[0]) - order(b[0]) || a[0].localeCompare(b[0]));
}

export interface StatusText {
  text: string;
  tooltip: string;
}

/** The item's text for these counts (or for a server that is not running). */
export function formatStatus(counts: [string, number][], state: SessionState): StatusText {
  if (state === "missing") {
    return { text: `$(circle-slash) ${DISPLAY_NAME}`, tooltip: `faultlens not found: ${INSTALL_COMMAND}` };
  }
  if (state === "failed" || state === "stopped") {
    return { text: `$(circle-slash) ${DISPLAY_NAME}`, tooltip: `faultlens server ${state}` };
  }
  if (state === "starting") {
    return { text: `$(sync~spin) ${DISPLAY_NAME}`, tooltip: "faultlens server starting" };
  }
  if (counts.length === 0) {
    return { text: `$(check) ${DISPLAY_NAME}`, tooltip: "faultlens: no failures" };
  }
  const blocking = counts.some(([t]) => !DEGRADED.has(t));
  const icon = blocking ? "$(error)" : "$(warning)";
  const parts = counts.map(([t, n]) => `${t} ${n}`);
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  return {
    text: `${icon} ${parts.join(" · ")}`,
    tooltip: `faultlens: ${total} failure${total === 1 ? "" : "s"} (${parts.join(", ")})`,
  };
}

export class StatusView implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly session: ServerSession) {
    this.item = vscode.window.createStatusBarItem("faultlens.status", vscode.StatusBarAlignment.Left, 10);
    this.item.name = "faultlens failures";
    this.item.command = ClientCommands.showLog;
    this.disposables.push(
      this.item,
      vscode.languages.onDidChangeDiagnostics(() => this.schedule()),
      session.onDidChangeState(() => this.schedule()),
    );
    this.render(countByType([]));
    this.item.show();
  }

  /** Refresh soon (diagnostics arrive in bursts). */
  schedule(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.refresh(), 150);
  }

  async refresh(): Promise<void> {
    this.timer = undefined;
    const answer = await this.session.failures();
    const types =
      typesFromFailures(answer) ?? typesFromDiagnostics(vscode.languages.getDiagnostics().map(([, d]) => d));
    this.render(countByType(types));
  }

  private render(counts: [string, number][]): void {
    const { text, tooltip } = formatStatus(counts, this.session.state);
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = counts.length > 0 ? "workbench.actions.view.problems" : ClientCommands.showLog;
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
