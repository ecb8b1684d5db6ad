// Driving the VS Code workbench with the keyboard (the command palette) and reading it
// back from the DOM.  Selectors are VS Code 1.100's.
const SHORT = 30_000; // a bound for a busy machine: waits end as soon as the UI shows

export async function waitForWorkbench(page, timeoutMs = 60_000) {
  await page.waitForSelector(".monaco-workbench", { timeout: timeoutMs });
  await page.waitForSelector(".statusbar", { timeout: timeoutMs });
}

/** Open the quick input (F1) with `prefix` and `text` typed. */
async function quickInput(page, text, { keepPrefix = true } = {}) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: SHORT });
  if (!keepPrefix) {
    await input.fill("");
  }
  await page.keyboard.type(text, { delay: 5 });
  return input;
}

/** Rows of the open quick pick. */
async function pickRows(page) {
  return page.locator(".quick-input-widget .quick-input-list .monaco-list-row").allInnerTexts();
}

const norm = (t) => t.toLowerCase().replace(/\u2026|\.\.\./g, "").replace(/\s+/g, " ").trim();

/** The first line (the label) of every row of the open quick pick. */
async function pickLabels(page) {
  const labels = await page
    .locator(".quick-input-widget .quick-input-list .monaco-list-row")
    .evaluateAll((rows) => rows.map((r) => (r.querySelector(".label-name") ?? r).textContent ?? ""));
  return labels.map(norm);
}

/** Focus the row whose label is `label` exactly (arrow keys), then accept it. */
async function acceptExact(page, label, what) {
  const want = norm(label);
  const index = await waitFor(async () => {
    const i = (await pickLabels(page)).findIndex((l) => l === want || l.startsWith(`${want} `));
    return i >= 0 ? i + 1 : undefined;
  }, SHORT, what);
  for (let i = 1; i < index; i++) {
    await page.keyboard.press("ArrowDown");
  }
  const focused = page.locator(".quick-input-widget .quick-input-list .monaco-list-row.focused");
  const text = norm((await focused.evaluate((r) => (r.querySelector(".label-name") ?? r).textContent)) ?? "");
  if (text !== want && !text.startsWith(`${want} `)) {
    throw new Error(`focused "${text}" instead of "${want}"`);
  }
  await page.keyboard.press("Enter");
}

/** Run a palette command by its exact title. */
export async function runCommand(page, title) {
  await quickInput(page, title);
  await acceptExact(page, title, `palette entry "${title}"`);
}

/** Type into the quick input that is open (input box or quick pick) and accept. */
export async function answerQuickInput(page, text, { pick } = {}) {
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: SHORT });
  await input.fill(text);
  if (pick) {
    await waitFor(async () => {
      const rows = await pickRows(page);
      return rows.length > 0 && pick.test(rows[0]);
    }, SHORT, `quick pick row ${pick}`);
  }
  await page.keyboard.press("Enter");
}

/** Type `text` into the open quick pick and accept the row labelled `label`. */
export async function chooseQuickPick(page, text, label) {
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: SHORT });
  await input.fill(text);
  await acceptExact(page, label, `quick pick row "${label}"`);
}

/** The labels of the open quick pick's rows. */
export async function quickPickLabels(page) {
  return pickLabels(page);
}

/** Open a workspace file (quick open) and put the cursor on `line` (1-based). */
export async function openFileAt(page, relPath, line) {
  await quickInput(page, relPath, { keepPrefix: false });
  const name = relPath.split("/").pop();
  await waitFor(async () => (await pickRows(page)).some((r) => r.includes(name)), SHORT, `quick open ${relPath}`);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`.tab.active[aria-label*="${name}"], .tab.active[title*="${name}"]`, { timeout: SHORT }).catch(() => undefined);
  await quickInput(page, `:${line}`, { keepPrefix: false });
  await page.waitForTimeout(200);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(300);
}

/** Every row of the Problems panel: its text and aria-label (file rows included). */
export async function problemRows(page) {
  return page.locator(".markers-panel .monaco-tl-row").evaluateAll((rows) =>
    rows.map((r) => {
      const container = r.closest(".monaco-list-row");
      const ariaLabel = container?.getAttribute("aria-label") ?? "";
      return {
        text: r.innerText.replace(/\s+/g, " ").trim(),
        ariaLabel,
        isFile: /^\d+ problems? in file /.test(ariaLabel),
      };
    }),
  );
}

/** The text of every visible hover. */
export async function hoverText(page) {
  const hovers = page.locator(".monaco-hover:visible");
  return (await hovers.allInnerTexts()).join("\n---\n");
}

/** The rows of the quick fix menu. */
export async function actionRows(page) {
  return page.locator(".action-widget .monaco-list-row").evaluateAll((rows) =>
    rows.map((r) => ({
      text: r.innerText.replace(/\s+/g, " ").trim(),
      focused: r.classList.contains("focused"),
      disabled: r.classList.contains("option-disabled") || r.getAttribute("aria-disabled") === "true",
    })),
  );
}

/** Texts of the status bar items. */
export async function statusTexts(page) {
  return page.locator(".statusbar-item").evaluateAll((items) =>
    items.map((i) => ({ id: i.id, text: i.innerText.trim(), ariaLabel: i.getAttribute("aria-label") ?? "" })),
  );
}

export async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await check();
      if (last) {
        return last;
      }
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`);
}
