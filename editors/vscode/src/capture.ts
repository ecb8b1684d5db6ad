// Keeping a command's output for the server: pure, tested without VS Code.

/** Terminal text: bare LF becomes CRLF (a pseudoterminal does no translation). */
export function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/**
 * Output kept up to `limit` characters: the head and the tail, with a marker line
 * between them when the middle had to be dropped (errors sit near the start or the end).
 */
export class OutputCapture {
  private head = "";
  private tailChunks: string[] = [];
  private tailSize = 0;
  private dropped = 0;

  constructor(private readonly limit = 8 * 1024 * 1024) {}

  append(chunk: string): void {
    const headLimit = Math.floor(this.limit / 4);
    if (this.head.length < headLimit) {
      const take = chunk.slice(0, headLimit - this.head.length);
      this.head += take;
      chunk = chunk.slice(take.length);
    }
    if (chunk === "") {
      return;
    }
    this.tailChunks.push(chunk);
    this.tailSize += chunk.length;
    const tailLimit = this.limit - headLimit;
    while (this.tailSize > tailLimit && this.tailChunks.length > 0) {
      const first = this.tailChunks[0];
      const excess = this.tailSize - tailLimit;
      if (first.length <= excess) {
        this.tailChunks.shift();
        this.tailSize -= first.length;
        this.dropped += first.length;
      } else {
        this.tailChunks[0] = first.slice(excess);
        this.tailSize -= excess;
        this.dropped += excess;
      }
    }
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  text(): string {
    const tail = this.tailChunks.join("");
    if (!this.truncated) {
      return this.head + tail;
    }
    // Start the kept tail at a line boundary so no half line is classified.
    const nl = tail.indexOf("\n");
    const cleanTail = nl >= 0 ? tail.slice(nl + 1) : tail;
    const sep = this.head.endsWith("\n") ? "" : "\n";
    return `${this.head}${sep}[faultlens: ${this.dropped} characters of output left out]\n${cleanTail}`;
  }
}

/** POSIX shell quoting of one argument (for showing an argv as a task command). */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(arg)) {
    return arg;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A runCommands entry as one command line. */
export function commandLine(spec: string | string[]): string {
  return typeof spec === "string" ? spec : spec.map(shellQuote).join(" ");
}
