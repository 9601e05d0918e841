"""Drive the Octoscript extension in code-server through headless Chromium.

Run by run.sh (which installs and starts code-server on 127.0.0.1); prints one
`CHECK <name> PASS|FAIL <detail>` line per check and saves screenshots.
Every count shown by VS Code is compared with what octoscript-lsp itself
reports for the same text and catalogs (a separate server process, asked
with a pull request), so a doubled or missing diagnostic fails.

The extension runs the server it bundles (no octoscript.server.path, no
octoscript-lsp on code-server's PATH); SERVER, an installed octoscript-lsp, is
the probe's server and the one the server-path checks name. The tool catalog
comes from a workspace catalog file (octoscript.catalogFiles).

Arguments: PORT WORKSPACE_DIR USER_SETTINGS_JSON SERVER ARTEFACTS_DIR LOGS_DIR
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

PORT, WORKSPACE, USER_SETTINGS, SERVER, ARTEFACTS, LOGS = sys.argv[1:7]
ORIGIN = f"http://127.0.0.1:{PORT}"
FILE = "demo.octoscript"
EDITOR = ".editor-instance .monaco-editor"
CHANNEL = "Octoscript Language Server"
# An option the server accepts (it exits 2 on unknown ones), spelled so that
# only the restarted server's command line holds it.
ARGS_MARKER = "--log-level=WARNING"
# Positions used below: line 9 `shout` at column 14, line 10 `text.echo` at
# column 25, line 12 the syntax error.
DEMO = """use mod.tool

let greeting = "hello"

fn shout(text) {
    return text
}

let answer = shout(greeting)
let echoed = tool.call("text.echo", answer)
let missing = tool.call("nothing.here", answer)
let a = (
"""
# Non-ASCII text: an astral character (two UTF-16 units) and an em dash
# before what is typed and asked about; VS Code counts UTF-16 units.
UNICODE_FILE = "unicode.octoscript"
UNICODE = """use mod.tool
let s = "é😀—中"; let x = 1
let y = x + 1
"""
UNICODE_TYPED = UNICODE.replace("x =", "xy =").replace("= x", "= xy")
UNICODE_WARNING = 'let o = "😀—"; let r = tool.call("text.nope", "")'
UNICODE_ERROR = 'let t = "😀—" + ) + 1'
CATALOG_FILE = "catalog.json"
FIRST_TOOLS = [
    {"name": "text.echo", "format": "text", "description": "Echo the input text."},
    {"name": "text.upper", "format": "text", "description": "Upper-case the input text."},
]
ADDED_TOOL = {"name": "text.lower", "format": "text", "description": "Lower-case the input text."}
failures: list[str] = []


def check(name: str, ok: bool, detail: object = "") -> bool:
    text = " ".join(str(detail).split())[:600]
    print(f"CHECK {name} {'PASS' if ok else 'FAIL'} {text}", flush=True)
    if not ok:
        failures.append(name)
    return ok


def poll(probe: Callable[[], object], timeout: float, interval: float = 0.25) -> object:
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value or time.monotonic() > end:
            return value
        time.sleep(interval)


# ------------------------------------------------------- the server's view ---


class ServerProbe:
    """A fresh octoscript-lsp asked for the diagnostics of one text."""

    def __init__(self, catalog: list[dict]) -> None:
        self.process = subprocess.Popen(
            [SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.replies: dict[int, dict] = {}
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        capabilities = {"textDocument": {"diagnostic": {}}}
        options = {"octoscript": {"toolCatalog": catalog}}
        self.request(
            1, "initialize", {"capabilities": capabilities, "initializationOptions": options}
        )
        self.notify("initialized", {})

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = 0
            while (line := stream.readline()).strip():
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line:
                return
            message = json.loads(stream.read(length))
            if "id" in message and "method" not in message:
                with self.lock:
                    self.replies[message["id"]] = message
                    self.lock.notify_all()

    def notify(self, method: str, params: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()

    def request(self, message_id: int, method: str, params: dict) -> dict:
        body = json.dumps({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})
        data = body.encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
        self.process.stdin.flush()
        with self.lock:
            self.lock.wait_for(lambda: message_id in self.replies, timeout=20)
            return self.replies[message_id]

    def diagnostics(self, text: str, uri: str) -> list[str]:
        document = {"uri": uri, "languageId": "octoscript", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": document})
        reply = self.request(2, "textDocument/diagnostic", {"textDocument": {"uri": uri}})
        self.process.stdin.close()
        self.process.wait(timeout=10)
        return [item["message"] for item in reply["result"]["items"]]


def server_diagnostics(catalog: list[dict]) -> list[str]:
    text = (Path(WORKSPACE) / FILE).read_text()
    return ServerProbe(catalog).diagnostics(text, (Path(WORKSPACE) / FILE).as_uri())


# --------------------------------------------------------------- settings ---


# code-server keeps Remote settings (the "machine" level) next to User/.
SETTINGS_FILES = {
    "User": Path(USER_SETTINGS),
    "Remote": Path(USER_SETTINGS).parent.parent / "Machine" / "settings.json",
}


def read_settings(level: str = "User") -> dict:
    path = SETTINGS_FILES[level]
    return json.loads(path.read_text() or "{}") if path.exists() else {}


def write_settings(page: Page, changes: dict, level: str = "User") -> None:
    """Edit User or Remote settings.json in VS Code's own editor, as a user would.

    (code-server does not notice the file changing behind its back.)
    """
    settings = read_settings(level)
    for key, value in changes.items():
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value
    command(page, f"Preferences: Open {level} Settings (JSON)")
    page.locator(".monaco-breadcrumbs:visible", has_text="settings.json").first.wait_for(
        timeout=15000
    )
    time.sleep(0.5)
    page.evaluate("text => navigator.clipboard.writeText(text)", json.dumps(settings, indent=2))
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+v")
    page.keyboard.press("Control+s")
    saved = poll(lambda: read_settings(level) == settings, 10)
    page.keyboard.press("Control+w")
    page.locator(".tabs-container .tab.active", has_text=FILE).first.wait_for(timeout=10000)
    if not saved:
        raise RuntimeError(f"settings.json was not saved with {changes}")


# ---------------------------------------------------------------- helpers ---


def _parent(pid: str) -> int | None:
    try:
        # /proc/PID/stat: "pid (comm) state ppid ...", comm may hold spaces.
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def server_pids(marker: str | None = None) -> set[int]:
    """Running servers: the bundled one (python -S -P -m octoscript_lsp) or SERVER."""
    found = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if _parent(pid) == os.getpid():
            continue  # the driver's own reference server (ServerProbe)
        args = [a.decode(errors="replace") for a in argv if a]
        bundled = args[1:5] == ["-S", "-P", "-m", "octoscript_lsp"]
        if (SERVER in args[:2] or bundled) and (marker is None or marker in args):
            found.add(int(pid))
    return found


def texts(page: Page, selector: str) -> list[str]:
    found = page.locator(selector)
    return [found.nth(i).inner_text() for i in range(found.count())]


def toasts(page: Page) -> list[str]:
    return [" ".join(t.split()) for t in texts(page, ".notifications-toasts .notification-toast")]


def problem_rows(page: Page) -> list[str]:
    return [
        r.replace("\n", " | ")
        for r in texts(page, ".markers-panel .monaco-list-row")
        if "[Ln " in r
    ]


def problem_badge(page: Page) -> int:
    """Errors + warnings + infos in the status bar's problems item."""
    label = page.locator('[id="status.problems"]').inner_text()
    return sum(int(n) for n in re.findall(r"\d+", label))


def wait_quick_input(page: Page) -> None:
    page.wait_for_selector(".quick-input-widget input", state="visible", timeout=10000)


def command(page: Page, title: str) -> None:
    page.keyboard.press("F1")
    wait_quick_input(page)
    page.keyboard.type(title, delay=10)
    page.locator(
        ".quick-input-list .monaco-list-row", has_text=title.split(": ", 1)[-1]
    ).first.wait_for(timeout=10000)
    page.keyboard.press("Enter")


def go_to(page: Page, spec: str) -> None:
    page.keyboard.press("Control+g")
    wait_quick_input(page)
    page.keyboard.type(spec)
    page.keyboard.press("Enter")
    time.sleep(0.3)


def hover_at(page: Page, spec: str) -> str:
    go_to(page, spec)
    box = page.locator(f"{EDITOR} .cursors-layer .cursor").first.bounding_box()
    page.mouse.move(box["x"] - 30, box["y"] + box["height"] / 2)
    page.mouse.move(box["x"] + 4, box["y"] + box["height"] / 2, steps=5)
    hover = page.locator(".monaco-hover:not(.hidden) .hover-contents")
    shown = poll(lambda: hover.count() > 0 and hover.first.inner_text().strip(), 8)
    if not shown:
        command(page, "Show or Focus Hover")
        shown = poll(lambda: hover.count() > 0 and hover.first.inner_text().strip(), 8)
    return str(shown or "")


def language_status(page: Page) -> str:
    """The Octoscript catalog item's text in the language status hover (`{}`)."""
    entry = page.locator('[id="status.languageStatus"]')
    if not entry.count():
        return ""
    hover = page.locator(".hover-language-status")
    if not hover.count():
        entry.first.click()
        poll(lambda: hover.count() > 0, 3)
    shown = [" ".join(t.split()) for t in texts(page, ".hover-language-status")]
    return " || ".join(shown)


def close_language_status(page: Page) -> None:
    if page.locator(".hover-language-status").count():
        page.keyboard.press("Escape")
        page.mouse.move(1200, 700)
        poll(lambda: not page.locator(".hover-language-status").count(), 3)


def status_shows(page: Page, text: str, timeout: float = 15) -> str:
    """Reopens the hover until it shows `text` (it follows the server's notification)."""

    def probe() -> str | None:
        shown = language_status(page)
        if text in shown:
            return shown
        close_language_status(page)
        return None

    return str(poll(probe, timeout, interval=0.5) or language_status(page))


def write_catalog(tools: list[dict]) -> None:
    """Rewrite the workspace catalog file on disk, as a host would."""
    target = Path(WORKSPACE) / CATALOG_FILE
    scratch = target.with_suffix(".tmp")
    scratch.write_text(json.dumps(tools, indent=2))
    scratch.replace(target)


def view_text(page: Page) -> str:
    """The editor's rendered lines (the whole demo fits on screen), spaces normalized."""
    text = page.locator(f"{EDITOR} .view-lines").first.inner_text()
    return text.replace("\u00a0", " ")


def problems_match(page: Page, name: str, catalog: list[dict], settle: float = 1.5) -> None:
    expected = server_diagnostics(catalog)
    poll(
        lambda: len(problem_rows(page)) == len(expected) and problem_badge(page) == len(expected),
        20,
    )
    time.sleep(settle)  # a late second copy would show up by now
    rows, badge = problem_rows(page), problem_badge(page)
    check(
        name,
        len(rows) == len(expected) == badge,
        f"server reports {len(expected)} {expected}; Problems lists {len(rows)} {rows}; "
        f"status bar counts {badge}",
    )


def save(page: Page, done: Callable[[str], bool]) -> None:
    """Save the editor and wait for the file on disk (the probe reads it)."""
    page.keyboard.press("Control+s")
    if not poll(lambda: done((Path(WORKSPACE) / FILE).read_text()), 10):
        raise RuntimeError("the edited file was not saved")


# ------------------------------------------------------------------ steps ---


@dataclass
class Session:
    page: Page
    shot: Callable[[str], None]
    catalog: list[dict]
    notes: list[str] = field(default_factory=list)  # notifications seen


def replaced(before: set[int], timeout: float = 20) -> bool:
    """Whether the servers in `before` gave way to new ones."""
    return bool(poll(lambda: server_pids() and not (before & server_pids()), timeout))


def open_demo(run: Session) -> None:
    page = run.page
    page.goto(f"{ORIGIN}/?folder={WORKSPACE}", timeout=60000)
    page.wait_for_selector(".monaco-workbench", timeout=90000)
    page.wait_for_selector(".explorer-folders-view .monaco-list-row", timeout=60000)
    page.keyboard.press("Control+p")
    wait_quick_input(page)
    page.keyboard.type(FILE, delay=20)
    page.locator(".quick-input-list .monaco-list-row", has_text=FILE).first.wait_for(timeout=15000)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{EDITOR} .view-lines", timeout=15000)
    mode = page.locator('[id="status.editor.mode"]')
    poll(lambda: mode.count() and mode.inner_text().strip() == "Octoscript", 20)
    check("language-mode", mode.inner_text().strip() == "Octoscript", mode.inner_text())
    page.keyboard.press("Control+Shift+m")
    page.wait_for_selector(".markers-panel", timeout=10000)
    problems_match(page, "problems-equal-server-syntax", run.catalog)
    run.shot("01-diagnostics.png")


def complete_tool_names(run: Session) -> None:
    """Catalog tool names inside tool.call("..."), then the line goes again."""
    page = run.page
    page.locator(f"{EDITOR} .view-lines").first.click()
    go_to(page, "9")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type('let shouted = tool.call("text.', delay=60)
    suggest = page.locator(".suggest-widget.visible .monaco-list-row")
    if not poll(lambda: suggest.count() >= 2, 8):
        page.keyboard.press("Control+space")
        poll(lambda: suggest.count() >= 2, 8)
    labels = [" ".join(t.split()) for t in texts(page, ".suggest-widget.visible .monaco-list-row")]
    listed = all(any(name in label for label in labels) for name in ("text.echo", "text.upper"))
    check("completion-catalog-tools", listed, labels)
    run.shot("02-completion.png")
    page.keyboard.press("Escape")
    page.keyboard.press("Control+Shift+k")


def bundled_server(run: Session) -> None:
    """The server runs from the extension's bundled/libs, with no setting naming it."""
    pids = poll(server_pids, 10) or set()
    details = []
    for pid in sorted(pids):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        path = [e.decode() for e in environ if e.startswith(b"PYTHONPATH=")]
        details.append((pid, [a.decode() for a in argv if a][:5], path))
    bundled = bool(details) and all(
        paths and paths[0].endswith("/bundled/libs") and args[3:5] == ["-m", "octoscript_lsp"]
        for _, args, paths in details
    )
    settings = read_settings()
    check(
        "bundled-server-started",
        bundled and "octoscript.server.path" not in settings,
        details,
    )


def catalog_status_item(run: Session) -> None:
    """The language status item shows the tool count from the catalog file."""
    shown = status_shows(run.page, "2 tools")
    check("status-item-tool-count", "2 tools" in shown and CATALOG_FILE in shown, shown)
    close_language_status(run.page)


def insert_tool_call(run: Session) -> None:
    """Insert Tool Call...: search as typed, insert the chosen tool's call."""
    page = run.page
    page.locator(f"{EDITOR} .view-lines").first.click()
    go_to(page, "9")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type("let inserted = ", delay=20)
    command(page, "Octoscript: Insert Tool Call...")
    title = page.locator(".quick-input-widget .quick-input-title", has_text="Insert Tool Call")
    title.first.wait_for(timeout=10000)
    page.keyboard.type("upper", delay=60)
    row = page.locator(".quick-input-list .monaco-list-row", has_text="text.upper")
    listed = bool(poll(lambda: row.count() > 0, 10))
    run.shot("03-insert-tool-call.png")
    pressed = time.time()
    if listed:
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("Escape")
    expected = 'let inserted = tool.call("text.upper", "")'
    shown = poll(lambda: expected in view_text(page), 8)
    run.shot("03b-after-insert.png")
    page.keyboard.press("Escape")  # leave the snippet
    time.sleep(0.5)
    kept = expected in view_text(page)
    uses = view_text(page).count("use mod.tool")
    check(
        "insert-tool-call",
        listed and bool(shown) and kept and uses == 1,
        f"listed={listed}; {expected!r} shown={bool(shown)} after {time.time() - pressed:.1f}s, "
        f"still there after Escape={kept}; `use mod.tool` lines={uses}",
    )
    go_to(page, "10")
    page.keyboard.press("Control+Shift+k")
    save(page, lambda text: "let inserted" not in text)


def catalog_file_changes(run: Session) -> None:
    """The catalog file rewritten on disk: the new tool is offered, no restart."""
    page = run.page
    before = server_pids()
    run.catalog = FIRST_TOOLS + [ADDED_TOOL]
    write_catalog(run.catalog)
    shown = status_shows(page, "3 tools")
    time.sleep(0.8)  # the hover has faded in
    run.shot("04-catalog-status.png")
    close_language_status(page)
    check("status-item-follows-file", "3 tools" in shown, shown)
    page.locator(f"{EDITOR} .view-lines").first.click()
    go_to(page, "9")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type('let lowered = tool.call("text.', delay=60)
    suggest = page.locator(".suggest-widget.visible .monaco-list-row")
    if not poll(lambda: suggest.count() >= 3, 8):
        page.keyboard.press("Control+space")
        poll(lambda: suggest.count() >= 3, 8)
    labels = [" ".join(t.split()) for t in texts(page, ".suggest-widget.visible .monaco-list-row")]
    page.keyboard.press("Escape")
    page.keyboard.press("Control+Shift+k")
    check(
        "completion-after-file-rewrite",
        any("text.lower" in label for label in labels) and server_pids() == before,
        f"{labels}; servers {sorted(before)} -> {sorted(server_pids())}",
    )


def malformed_catalog(run: Session) -> None:
    """A malformed update: the item warns that the tool catalog was discarded."""
    page = run.page
    write_catalog([FIRST_TOOLS[0], FIRST_TOOLS[0]])  # a duplicate name
    shown = status_shows(page, "discarded")
    time.sleep(0.8)  # the hover has faded in
    run.shot("05-catalog-discarded.png")
    close_language_status(page)
    check("status-item-discarded", "tool catalog discarded" in shown, shown)
    run.notes.extend(t for t in toasts(page) if "discarded" not in t)
    command(page, "Notifications: Clear All Notifications")
    write_catalog(run.catalog)
    shown = status_shows(page, "3 tools")
    close_language_status(page)
    check("status-item-recovers", "3 tools" in shown, shown)


def no_flicker(run: Session) -> None:
    """Typing into a line that stays broken: Problems never drops to zero."""
    page = run.page
    page.locator(f"{EDITOR} .view-lines").first.click()
    go_to(page, "12")
    page.keyboard.press("End")
    page.evaluate(
        """() => {
            window.__counts = [];
            window.__sampler = setInterval(() => {
                const item = document.getElementById("status.problems");
                const numbers = (item ? item.innerText : "").match(/\\d+/g) || [];
                window.__counts.push(numbers.reduce((sum, n) => sum + Number(n), 0));
            }, 5);
        }"""
    )
    burst = " 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8"
    page.keyboard.type(burst, delay=35)
    time.sleep(2.5)
    counts = page.evaluate("() => { clearInterval(window.__sampler); return window.__counts; }")
    check(
        "no-flicker-while-typing",
        len(counts) > 100 and min(counts) > 0,
        f"{len(counts)} samples of the Problems count, lowest {min(counts) if counts else None}, "
        f"values {sorted(set(counts))}",
    )
    for _ in burst:
        page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("Backspace")
    save(page, lambda text: text.endswith("let a = (\n"))


def fix_and_hover(run: Session) -> None:
    """Without the syntax error the catalog advice appears, once; then hover."""
    page = run.page
    go_to(page, "12")
    page.keyboard.press("Control+Shift+k")
    save(page, lambda text: "let a = (" not in text)
    problems_match(page, "problems-equal-server-advice", run.catalog)
    run.shot("03-catalog-advice.png")
    shown = hover_at(page, "9:15")
    check("hover-function", "shout" in shown, shown)
    run.shot("04-hover.png")
    page.mouse.move(1300, 780)
    page.keyboard.press("Escape")


def restart_twice(run: Session) -> None:
    for round_ in (1, 2):
        before = server_pids()
        command(run.page, "Octoscript: Restart Language Server")
        check(
            f"restart-command-{round_}",
            replaced(before),
            f"{sorted(before)} -> {sorted(server_pids())}",
        )
        run.notes.extend(toasts(run.page))
    problems_match(run.page, "problems-after-restarts", run.catalog)
    run.shot("05-after-restart.png")


def change_settings(run: Session) -> None:
    """A catalog change keeps the server; an args change restarts it from the User path."""
    page = run.page
    listed = {"name": "nothing.here", "format": "text", "description": "Listed now."}
    run.catalog = run.catalog + [listed]
    before = server_pids()
    write_settings(page, {"octoscript.toolCatalog": run.catalog})
    problems_match(page, "problems-after-catalog-setting", run.catalog)
    kept = server_pids() == before
    check("catalog-setting-keeps-server", kept, f"{sorted(before)} -> {sorted(server_pids())}")
    # In a remote window a machine-overridable path once got lost right here.
    write_settings(page, {"octoscript.server.args": [ARGS_MARKER]})
    restarted = poll(lambda: server_pids(ARGS_MARKER), 20)
    time.sleep(2.0)  # a server that rejected its arguments would be gone by now
    serving = bool(restarted) and server_pids(ARGS_MARKER) == restarted
    check("server-args-setting-restarts", serving, sorted(server_pids()))
    run.notes.extend(toasts(page))
    quiet = not any("octoscript" in n.lower() or "request" in n.lower() for n in run.notes)
    check("no-octoscript-notifications", quiet, run.notes)


def one_popup(
    run: Session,
    changes: dict,
    name: str,
    picture: str | None = None,
    expect: str = "octoscript.server.path",
) -> None:
    """A server that cannot serve: exactly one pop-up, naming the setting (or quoting)."""
    page = run.page
    write_settings(page, changes)
    poll(lambda: toasts(page), 20)
    time.sleep(3.0)  # a second pop-up would be up by now
    shown = toasts(page)
    if picture:
        run.shot(picture)
    check(name, len(shown) == 1 and expect in shown[0], shown)
    command(page, "Notifications: Clear All Notifications")
    poll(lambda: not toasts(page), 5)


def fail_to_start(run: Session) -> None:
    # A bad argument: the bundled server exits during start; the pop-up quotes it.
    one_popup(
        run,
        {"octoscript.server.args": ["--bogus"]},
        "bad-args-popup-quotes-server",
        "06-bad-args.png",
        expect="unrecognized arguments: --bogus",
    )
    write_settings(run.page, {"octoscript.server.args": None})
    # No such file: the path overrides the bundled server, so it is an error.
    one_popup(
        run,
        {"octoscript.server.path": "/nonexistent/octoscript-lsp"},
        "start-failure-one-popup",
        "07-start-failure.png",
    )
    # A program that exits at once: the start fails instead.
    one_popup(run, {"octoscript.server.path": "/bin/false"}, "server-exits-one-popup")
    write_settings(run.page, {"octoscript.server.path": None})
    back = poll(
        lambda: server_pids() and all(pid not in server_pids(SERVER) for pid in server_pids()), 20
    )
    check("bundled-server-back-after-fix", bool(back), sorted(server_pids()))


def path_from_remote_settings(run: Session) -> None:
    """The path in Remote settings only: it replaces the bundled server and serves."""
    page = run.page
    before = server_pids()
    write_settings(page, {"octoscript.server.path": SERVER}, level="Remote")
    moved = replaced(before) and poll(lambda: server_pids() == server_pids(SERVER), 10)
    detail = f"{sorted(before)} -> {sorted(server_pids(SERVER))}"
    check("server-from-remote-settings", bool(moved), detail)
    page.locator(f"{EDITOR} .view-lines").first.click()
    go_to(page, "12")
    page.keyboard.type("let broken = (", delay=40)
    save(page, lambda text: "let broken = (" in text)
    problems_match(page, "problems-after-remote-path", run.catalog)
    run.shot("08-remote-path.png")
    check("no-popup-after-fix", not toasts(page), toasts(page))


def utf16_column(line: str, needle: str, offset: int = 0) -> int:
    """VS Code's 1-based column (UTF-16 units) of `needle` (plus `offset` characters)."""
    before = line[: line.index(needle) + offset]
    return len(before.encode("utf-16-le")) // 2 + 1


def clipboard(page: Page) -> str:
    return page.evaluate("() => navigator.clipboard.readText()")


def copied_to_line_end(page: Page) -> str:
    """The text from the cursor to the end of its line, as VS Code copies it."""
    page.keyboard.press("Shift+End")
    page.keyboard.press("Control+c")
    time.sleep(0.3)
    text = clipboard(page)
    page.keyboard.press("Escape")
    return text


def paste(page: Page, text: str) -> None:
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.keyboard.press("Control+v")


def symbol_names(page: Page) -> list[str]:
    """The names Go to Symbol in Editor lists (from the server's document symbols)."""
    page.keyboard.press("Control+Shift+o")
    wait_quick_input(page)
    # Visible rows only: an earlier quick pick's rows may linger hidden.
    rows = ".quick-input-list .monaco-list-row .label-name:visible"
    poll(lambda: page.locator(rows).count() > 0, 10)
    names = [" ".join(t.split()) for t in texts(page, rows)]
    page.keyboard.press("Escape")
    return names


def problem_row(page: Page, text: str, line: int) -> str:
    """The Problems row holding `text` on `line` (of any file), once there."""
    found = poll(
        lambda: [row for row in problem_rows(page) if text in row and f"[Ln {line}, " in row], 20
    )
    return found[0] if found else ""


def first_marker_text(page: Page) -> str:
    """Go to Next Problem from the top of the file; the text from there on."""
    page.keyboard.press("Control+Home")
    page.keyboard.press("F8")
    time.sleep(0.5)
    page.keyboard.press("Escape")  # the marker widget
    return copied_to_line_end(page)


def non_ascii_text(run: Session) -> None:
    """Typing after é😀—中, then definition, rename and diagnostics in UTF-16."""
    page = run.page
    page.keyboard.press("Control+p")
    wait_quick_input(page)
    page.keyboard.type(UNICODE_FILE, delay=20)
    page.locator(".quick-input-list .monaco-list-row", has_text=UNICODE_FILE).first.wait_for(
        timeout=15000
    )
    page.keyboard.press("Enter")
    page.locator(".tabs-container .tab.active", has_text=UNICODE_FILE).first.wait_for(timeout=15000)
    page.locator(f"{EDITOR} .view-lines").first.click()
    lines = UNICODE.splitlines()
    go_to(page, f"2:{utf16_column(lines[1], 'x = 1', 1)}")
    page.keyboard.type("y")
    go_to(page, f"3:{utf16_column(lines[2], 'x + 1', 1)}")
    page.keyboard.type("y")
    names = poll(lambda: (found := symbol_names(page)) == ["s", "xy", "y"] and found, 10)
    check("unicode-typing", bool(names), names or symbol_names(page))

    typed = UNICODE_TYPED.splitlines()
    go_to(page, f"3:{utf16_column(typed[2], 'xy + 1', 1)}")
    page.keyboard.press("F12")
    cursor = page.locator('[id="status.editor.selection"]')
    poll(lambda: cursor.count() and cursor.first.inner_text().startswith("Ln 2,"), 10)
    landed = copied_to_line_end(page)
    check("unicode-definition", landed == "xy = 1", repr(landed))

    go_to(page, f"2:{utf16_column(typed[1], 'xy = 1', 1)}")
    page.keyboard.press("F2")
    rename_box = page.locator(".rename-box input, .rename-box .rename-input")
    rename_box.first.wait_for(timeout=10000)
    rename_box.first.fill("total")  # focuses the box: keys could reach the editor first
    page.keyboard.press("Enter")
    expected = UNICODE_TYPED.replace("xy", "total")
    poll(lambda: "let total = 1" in view_text(page), 10)
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+c")
    time.sleep(0.3)
    text = clipboard(page)
    page.keyboard.press("Control+End")
    check("unicode-rename", text == expected, repr(text))

    # A warning spanning a string, then a syntax error (the warning goes).
    paste(page, UNICODE_WARNING + "\n")
    row = problem_row(page, "text.nope", 4)
    column = utf16_column(UNICODE_WARNING, '"text.nope"')
    time.sleep(1.0)
    run.shot("09-non-ascii-warning.png")
    marked = first_marker_text(page)
    check(
        "unicode-warning",
        f"[Ln 4, Col {column}]" in row and marked == '"text.nope", "")',
        f"row {row!r}; from the marker: {marked!r}",
    )
    page.keyboard.press("Control+End")
    paste(page, UNICODE_ERROR + "\n")
    row = problem_row(page, "expected an expression", 5)
    column = utf16_column(UNICODE_ERROR, ")")
    time.sleep(1.0)
    run.shot("10-non-ascii-error.png")
    marked = first_marker_text(page)
    check(
        "unicode-syntax-error",
        f"[Ln 5, Col {column}]" in row and marked == ") + 1",
        f"row {row!r}; from the marker: {marked!r}",
    )
    page.keyboard.press("Control+s")
    poll(lambda: (Path(WORKSPACE) / UNICODE_FILE).read_text() != UNICODE, 10)
    page.keyboard.press("Control+w")
    page.locator(".tabs-container .tab.active", has_text=FILE).first.wait_for(timeout=10000)


def reload_window(run: Session) -> None:
    """Reloading the window shuts the extension down: nothing fails on the way."""
    page = run.page
    go_to(page, "9:15")  # code actions are asked for at the cursor
    command(page, "Developer: Reload Window")
    page.wait_for_selector(".monaco-workbench", timeout=90000)
    time.sleep(3.0)
    # One log entry: a timestamped line and the stack lines under it. Other
    # extensions' entries (the built-in JSON client has its own) do not count:
    # ours name the extension (`[octoscript.octoscript]`) or its directory.
    entries = [
        entry
        for log in Path(LOGS).glob("*/exthost*/*.log")
        for entry in re.split(r"\n(?=\d{4}-\d\d-\d\d )", log.read_text(errors="replace"))
    ]
    closed = [
        " | ".join(entry.splitlines()[:3])[:300]
        for entry in entries
        if ("Channel has been closed" in entry or "provider FAILED" in entry)
        and "octoscript.octoscript" in entry  # the extension's id, or its install path
    ]
    check("shutdown-leaves-no-failed-provider", not closed, closed[:3])


STEPS = (
    open_demo,
    bundled_server,
    complete_tool_names,
    catalog_status_item,
    insert_tool_call,
    catalog_file_changes,
    malformed_catalog,
    no_flicker,
    fix_and_hover,
    restart_twice,
    change_settings,
    fail_to_start,
    path_from_remote_settings,
    non_ascii_text,
    reload_window,
)


def output_channels() -> list[Path]:
    return sorted(Path(LOGS).glob(f"*/exthost*/output_logging_*/*{CHANNEL}*.log"))


def main() -> None:
    Path(ARTEFACTS).mkdir(parents=True, exist_ok=True)
    (Path(WORKSPACE) / FILE).write_text(DEMO)
    (Path(WORKSPACE) / UNICODE_FILE).write_text(UNICODE, encoding="utf-8")
    write_catalog(FIRST_TOOLS)
    (Path(WORKSPACE) / ".vscode").mkdir(exist_ok=True)
    (Path(WORKSPACE) / ".vscode" / "settings.json").write_text(
        json.dumps({"octoscript.catalogFiles": [CATALOG_FILE]}, indent=2)
    )
    catalog = list(FIRST_TOOLS)
    blocked: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-default-apps",
            ],
        )
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=ORIGIN)

        def loopback_only(route) -> None:
            url = route.request.url
            if url == ORIGIN or url.startswith((ORIGIN + "/", "data:", "blob:")):
                route.continue_()
            else:
                blocked.append(url)
                route.abort()

        context.route("**/*", loopback_only)
        page = context.new_page()

        def shot(name: str) -> None:
            page.screenshot(path=str(Path(ARTEFACTS) / name))

        try:
            run = Session(page, shot, catalog)
            for step in STEPS:
                step(run)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            check("driver-completed", False, f"{type(error).__name__}: {error}")
            shot("99-failure.png")
        finally:
            browser.close()
    check("browser-stayed-on-loopback", not blocked, blocked[:5])
    # One per extension host (the window reload at the end starts a second one).
    channels = output_channels()
    hosts = {channel.parent.parent for channel in channels}
    check("one-output-channel", len(channels) == len(hosts), [str(c) for c in channels])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
