#!/usr/bin/env python3
"""Fails when an executed notebook's outputs show that its Go code did not run cleanly.

Usage: python3 notebooks/check_outputs.py [--forbid-path] NOTEBOOK.ipynb...

GoNB reports a failed `go build` as an `error` output (nbconvert then fails on its own), but a Go panic,
log.Fatal or os.Exit(1) at run time only prints to the cell's stderr: the cell does not fail and
`jupyter nbconvert --execute` succeeds. This script reads the outputs that nbconvert saved and exits 1,
naming the notebook and the cell (its 0-based index in the notebook, as in nbformat, and its "In [n]"
execution count) with the first lines of the offending output, when a code cell has:

  - an `error` output (a failed build, `go get` or special command);
  - a Go panic or runtime error in any text output: a line starting with "panic: " or "fatal error: ",
    or a goroutine trace header ("goroutine 1 [running]:");
  - in a stderr stream: Go compiler errors ("./main.go:12:3: undefined: x", "# gonb_1a2b3c4d") or a
    non-zero "exit status N" (how GoNB reports a program that exited with an error);
  - a GoNB error report rendered as HTML (compile errors, class "gonb-err-location").

Other stderr is allowed (warnings, library log lines): it is printed as a note, never a failure.
With --forbid-path, it also fails when an output contains the absolute path of this checkout (the committed
notebooks must not carry the path of the machine that ran them).

Exit status: 0 when every notebook is clean, 1 when a problem was found, 2 on a usage or read error.
Python 3 standard library only.
"""

import json
import os
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TAG = re.compile(r"<[^>]+>")

# Text of any output (stdout, stderr, text/plain, text/html): a Go panic or fatal runtime error.
PANIC = re.compile(r"^\s*(panic: |fatal error: )", re.M)
GOROUTINE = re.compile(r"^\s*goroutine \d+ \[[^\]]+\]:", re.M)
# Stderr only: compiler output and the exit status of a failed program.
COMPILE = re.compile(r"^\s*(\S+\.go:\d+(:\d+)?: |# gonb_[0-9a-f]+\s*$)", re.M)
EXIT = re.compile(r"^\s*exit status [1-9]\d*\s*$", re.M)
# HTML: GoNB's rendering of compile errors.
GONB_HTML_ERROR = re.compile(r'gonb-err-location|class="gonb-err-line"')

HEAD_LINES = 8


def text_of(value):
    """Joins nbformat's multi-line strings (a list of lines or one string)."""
    if isinstance(value, list):
        return "".join(value)
    return value if isinstance(value, str) else ""


def head(text, n=HEAD_LINES):
    lines = [l.rstrip() for l in ANSI.sub("", text).splitlines() if l.strip()]
    out = lines[:n]
    if len(lines) > n:
        out.append("... (%d more lines)" % (len(lines) - n))
    return "\n".join("      | " + l for l in out)


def html_text(html):
    """The visible text of GoNB's HTML error report, roughly."""
    html = re.sub(r"<style.*?</style>", "", html, flags=re.S)
    html = re.sub(r'<div class="gonb-err-context">.*?</div>\s*</div>', "", html, flags=re.S)
    return re.sub(r"[ \t]+", " ", TAG.sub("", html))


def check_output(out, forbidden):
    """Returns (problem, text to show) for one output, or (None, note) for harmless stderr."""
    kind = out.get("output_type")
    if kind == "error":
        tb = "\n".join(ANSI.sub("", l) for l in out.get("traceback", []))
        return "error output (%s: %s)" % (out.get("ename", "?"), ANSI.sub("", out.get("evalue", ""))), tb
    texts = []  # (label, text)
    if kind == "stream":
        texts.append((out.get("name", "stream"), text_of(out.get("text"))))
    elif kind in ("display_data", "execute_result"):
        for mime, value in (out.get("data") or {}).items():
            if mime.startswith("text/") or mime in ("image/svg+xml", "application/json"):
                texts.append((mime, text_of(value) if not isinstance(value, dict) else json.dumps(value)))
    for label, text in texts:
        plain = ANSI.sub("", text)
        if PANIC.search(plain) or GOROUTINE.search(plain):
            return "Go panic or fatal runtime error (%s)" % label, plain
        if label == "stderr":
            if COMPILE.search(plain):
                return "Go compile error (stderr)", plain
            if EXIT.search(plain):
                return "program exited with an error (stderr)", plain
        if label == "text/html" and GONB_HTML_ERROR.search(text):
            return "GoNB error report (HTML)", html_text(text)
        for path in forbidden:
            if path in text:
                return "absolute path of this checkout (%s) in a %s output" % (path, label), plain
    if kind == "stream" and out.get("name") == "stderr":
        return None, text_of(out.get("text"))
    return None, None


def checkout_paths():
    """The absolute path of the checkout this script lives in, as given and with symlinks resolved."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return sorted({root, os.path.realpath(root)}, key=len, reverse=True)


def check_notebook(path, forbidden):
    try:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, ValueError) as e:
        print("%s: cannot read the notebook: %s" % (path, e), file=sys.stderr)
        return None
    problems, notes, outputs, executed = 0, 0, 0, 0
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("execution_count") is not None:
            executed += 1
        first = next((l.strip() for l in text_of(cell.get("source")).splitlines()
                      if l.strip() and not l.strip().startswith(("import", "(", "//", "%%"))), "")
        where = "cell %d (In [%s], id %s: %s)" % (index, cell.get("execution_count") or " ",
                                                    cell.get("id", "-"), first[:60])
        for out in cell.get("outputs", []):
            outputs += 1
            problem, text = check_output(out, forbidden)
            if problem:
                problems += 1
                print("%s: %s: %s\n%s" % (path, where, problem, head(text or "")), file=sys.stderr)
            elif text:
                notes += 1
                print("%s: %s: note, stderr output (allowed):\n%s" % (path, where, head(text, 3)),
                      file=sys.stderr)
    if problems:
        print("%s: FAILED, %d problem(s) in the cell outputs" % (path, problems), file=sys.stderr)
    else:
        print("%s: outputs ok (%d code cells executed, %d outputs checked%s)" % (
            path, executed, outputs, ", %d stderr note(s)" % notes if notes else ""))
    return problems


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = [a for a in argv if a.startswith("--")]
    unknown = [f for f in flags if f not in ("--forbid-path", "--help", "-h")]
    if "--help" in flags or not args or unknown:
        print(__doc__.strip(), file=sys.stderr)
        if unknown:
            print("unknown flag(s): %s" % " ".join(unknown), file=sys.stderr)
        return 0 if "--help" in flags and not unknown else 2
    forbidden = checkout_paths() if "--forbid-path" in flags else []
    status = 0
    for path in args:
        problems = check_notebook(path, forbidden)
        if problems is None:
            status = max(status, 2)
        elif problems:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
