// A small stand-in for the `vscode` module: just what the extension touches, recording
// what it is asked to do so tests can assert on it.  Installed by ./register.
/* eslint-disable @typescript-eslint/no-explicit-any */

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

export const Uri = {
  file: (fsPath: string) => ({ scheme: "file", fsPath, path: fsPath, toString: () => `file://${fsPath}` }),
};

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export enum TaskScope {
  Global = 1,
  Workspace = 2,
}
export enum TaskRevealKind {
  Always = 1,
  Silent = 2,
  Never = 3,
}

export class CustomExecution {
  constructor(readonly callback: (definition: any) => Promise<any>) {}
}

export class Task {
  presentationOptions: unknown;
  constructor(
    readonly definition: any,
    readonly scope: any,
    readonly name: string,
    readonly source: string,
    readonly execution: CustomExecution,
    readonly problemMatchers: string[],
  ) {}
}

/** Everything the stub was asked, for assertions. */
export const recorded = {
  errors: [] as { message: string; items: string[] }[],
  commands: new Map<string, (...args: any[]) => unknown>(),
  executed: [] as { command: string; args: unknown[] }[],
  taskProviders: new Map<string, any>(),
  statusItems: [] as any[],
  outputLines: [] as string[],
  infos: [] as { message: string; items: string[] }[],
};

/** What the stub's message boxes answer (the item a user would click), set by tests. */
export const answers = { info: undefined as string | undefined };

/** Settings returned by workspace.getConfiguration("faultlens"). */
export const config: Record<string, unknown> = {};

/** Workspace folders (set by tests). */
export const folders: { uri: ReturnType<typeof Uri.file>; name: string; index: number }[] = [];

function outputChannel(name: string): any {
  const line = (level: string) => (msg: string) => recorded.outputLines.push(`[${level}] ${name}: ${msg}`);
  return {
    name,
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    debug: line("debug"),
    trace: line("trace"),
    appendLine: line("line"),
    append: line("append"),
    show: () => undefined,
    dispose: () => undefined,
  };
}

const noEvent = () => new Disposable();

/** Terminal shell-integration events, fired by tests. */
export const terminalEvents = {
  start: new EventEmitter<any>(),
  end: new EventEmitter<any>(),
};

export const window = {
  createOutputChannel: (name: string) => outputChannel(name),
  createStatusBarItem: () => {
    const item = {
      text: "",
      tooltip: "",
      command: undefined,
      name: "",
      visible: false,
      show(): void {
        this.visible = true;
      },
      hide(): void {
        this.visible = false;
      },
      dispose: () => undefined,
    };
    recorded.statusItems.push(item);
    return item;
  },
  showErrorMessage: async (message: string, ...items: string[]) => {
    recorded.errors.push({ message, items });
    return undefined;
  },
  showInformationMessage: async (message: string, ...items: string[]) => {
    recorded.infos.push({ message, items });
    return answers.info;
  },
  showWarningMessage: async () => undefined,
  showQuickPick: async () => undefined,
  showInputBox: async () => undefined,
  setStatusBarMessage: () => new Disposable(),
  onDidStartTerminalShellExecution: terminalEvents.start.event,
  onDidEndTerminalShellExecution: terminalEvents.end.event,
};

export const workspace = {
  get workspaceFolders() {
    return folders.length > 0 ? folders : undefined;
  },
  getConfiguration: () => ({ get: (key: string) => config[key] }),
  onDidChangeConfiguration: noEvent,
};

/** Other extensions (the Python extension is looked up for its environments API). */
export const installedExtensions = new Map<string, any>();
export const extensions = {
  getExtension: (id: string) => installedExtensions.get(id),
};

export const languages = {
  onDidChangeDiagnostics: noEvent,
  getDiagnostics: () => [] as [unknown, unknown[]][],
};

export const tasks = {
  registerTaskProvider: (type: string, provider: unknown) => {
    recorded.taskProviders.set(type, provider);
    return new Disposable();
  },
};

export const commands = {
  registerCommand: (id: string, fn: (...args: any[]) => unknown) => {
    recorded.commands.set(id, fn);
    return new Disposable(() => recorded.commands.delete(id));
  },
  executeCommand: async (command: string, ...args: unknown[]) => {
    recorded.executed.push({ command, args });
    return undefined;
  },
};

export const env = { clipboard: { writeText: async () => undefined } };
