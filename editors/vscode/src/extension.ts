// Wiring only: settings, the server session, the task provider, terminal forwarding,
// the status bar and the palette commands each live in their own module.
import * as vscode from "vscode";

import { CIOfferView } from "./ci";
import { RecentTasks, registerCommands } from "./commands";
import { CONFIG_SECTION, DISPLAY_NAME, TASK_TYPE } from "./common/constants";
import { ServerSession } from "./common/server";
import { type FaultlensSettings, RESTART_KEYS, readSettings } from "./common/settings";
import { StatusView } from "./status";
import { FaultlensTaskProvider } from "./task";
import { TerminalForwarder } from "./terminal";

let session: ServerSession | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(DISPLAY_NAME, { log: true });
  const getSettings = (): FaultlensSettings => {
    const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
    const { settings, problems } = readSettings((key) => config.get(key));
    for (const p of problems) {
      output.warn(p);
    }
    return settings;
  };
  session = new ServerSession(output, getSettings, context.extensionPath);
  const recent = new RecentTasks();
  const launchKey = (): string => JSON.stringify([getSettings().serverPath, getSettings().interpreter]);
  let launch = launchKey();
  const sink = session.ingest.bind(session);
  const seen = recent.add.bind(recent);

  const status = new StatusView(session);
  const ciOffer = new CIOfferView(); // hidden until the server says the branch's last run failed
  context.subscriptions.push(
    output,
    session,
    status,
    ciOffer,
    session.onCIFailed((params) => void ciOffer.offer(params)),
    vscode.tasks.registerTaskProvider(TASK_TYPE, new FaultlensTaskProvider(sink, seen, getSettings)),
    new TerminalForwarder(sink, seen, () => getSettings().forwardTerminal, output),
    ...registerCommands(session, recent, getSettings, () => ciOffer.taken()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!RESTART_KEYS.some((k) => e.affectsConfiguration(`${CONFIG_SECTION}.${k}`))) {
        return;
      }
      const now = launchKey();
      if (now !== launch) {
        launch = now;
        void session?.restart();
      }
    }),
  );
  await session.start();
}

export async function deactivate(): Promise<void> {
  await session?.stop();
  session = undefined;
}
