#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Fails when an executed notebook's outputs show that its Go code did not run cleanly.

Usage: python3 notebooks/check_outputs.py [--forbid-path] NOTEBOOK.ipynb...
       python3 notebooks/check_outputs.py --failed-run LOG NOTEBOOK.ipynb

`make notebooks` executes each notebook with `jupyter nbconvert --execute --allow-errors` (notebooks/execute.sh),
so nbconvert succeeds whatever the cells do. GoNB (v0.11.4) turns a failed `go build` and a program that exits
non-zero (a panic, log.Fatal, os.Exit(1)) into an `error` output; older versions printed a run-time failure only
to the cell's stderr. This script reads the outputs that nbconvert saved and exits 1, naming the notebook and
each failed cell (its 0-based index in the notebook, as in nbformat, its "In [n]" execution count, its id and
first line) with the first lines of the offending output, when a code cell has:

  - an `error` output (a failed build, a program that exited non-zero, a failed `go get` or special command);
  - a Go panic or runtime error in any text output: a line starting with "panic: " or "fatal error: ",
    or a goroutine trace header ("goroutine 1 [running]:");
  - in a stderr stream: Go compiler errors ("./main.go:12:3: undefined: x", "# gonb_1a2b3c4d") or a
    non-zero "exit status N" (how GoNB reports a program that exited with an error);
  - a GoNB error report rendered as HTML (compile errors, run-time stack traces: class "gonb-err-location").

The text checks do not depend on how a GoNB version reports a failure: they still fail a run if a later version
stops emitting the error output. Other stderr is allowed (warnings, library log lines): it is printed as a
note, never a failure. With --forbid-path, it also fails when an output contains the absolute path of this
checkout (the committed notebooks must not carry the path of the machine that ran them).

--failed-run LOG: nbconvert itself failed (the kernel died, a cell timed out) and wrote no executed copy; LOG
is its stderr with the lines of notebooks/nbconvert_config.py, which mark each cell as it starts. Names the
cell that was running (read from NOTEBOOK, the source notebook) and nbconvert's error, and exits 1.

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


def read_notebook(path):
    """The notebook's JSON, or None after printing why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("%s: cannot read the notebook: %s" % (path, e), file=sys.stderr)
        return None


def cell_name(index, cell):
    """How a report names a cell: its index, "In [n]", id and first line of code."""
    first = next((l.strip() for l in text_of(cell.get("source")).splitlines()
                  if l.strip() and not l.strip().startswith(("import", "(", "//", "%%"))), "")
    return "cell %d (In [%s], id %s: %s)" % (index, cell.get("execution_count") or " ",
                                             cell.get("id", "-"), first[:60])


def check_notebook(path, forbidden):
    """Prints each failed cell of an executed notebook (its first problem in full, the others in one line)
    and the notes on harmless stderr; returns the number of failed cells, or None if unreadable."""
    nb = read_notebook(path)
    if nb is None:
        return None
    failed, notes, outputs, executed = 0, 0, 0, 0
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("execution_count") is not None:
            executed += 1
        problems = []  # (problem, text), in output order
        for out in cell.get("outputs", []):
            outputs += 1
            problem, text = check_output(out, forbidden)
            if problem:
                problems.append((problem, text))
            elif text:
                notes += 1
                print("%s: %s: note, stderr output (allowed):\n%s" % (path, cell_name(index, cell), head(text, 3)),
                      file=sys.stderr)
        if problems:
            failed += 1
            problem, text = problems[0]
            also = "".join("\n      also: %s" % p for p, _ in problems[1:])
            print("%s: %s: %s\n%s%s" % (path, cell_name(index, cell), problem, head(text or ""), also),
                  file=sys.stderr)
    if failed:
        print("%s: FAILED, %d cell(s) with problems in their outputs" % (path, failed), file=sys.stderr)
    else:
        print("%s: outputs ok (%d code cells executed, %d outputs checked%s)" % (
            path, executed, outputs, ", %d stderr note(s)" % notes if notes else ""))
    return failed


# The line notebooks/nbconvert_config.py logs before each code cell runs.
RUNNING = re.compile(r"^\[check_outputs\] executing cell (\d+) ", re.M)
# The last line of a Python traceback in nbconvert's log ("nbclient.exceptions.DeadKernelError: Kernel died").
EXCEPTION = re.compile(r"^([\w.]*(Error|Exception|Interrupt)\b.*)$", re.M)


def check_failed_run(log_path, path):
    """Reports the cell that was running when nbconvert stopped without writing the executed copy."""
    nb = read_notebook(path)
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            log = ANSI.sub("", f.read())
    except OSError as e:
        print("%s: cannot read nbconvert's log: %s" % (log_path, e), file=sys.stderr)
        return None
    if nb is None:
        return None
    marks = list(RUNNING.finditer(log))
    running = [m.group(1) for m in marks]
    exceptions = EXCEPTION.findall(log)
    reason = exceptions[-1][0] if exceptions else "no exception in the log"
    cells = nb.get("cells", [])
    if running and int(running[-1]) < len(cells):
        index = int(running[-1])
        where = cell_name(index, cells[index])
    else:
        where = "before any code cell ran (the kernel did not start?)"
    # What the kernel and nbconvert logged while that cell ran, without nbconvert's Python traceback.
    tail = log[marks[-1].end():] if marks else log
    tail = tail.split("Traceback (most recent call last):")[0]
    lines = [l for l in tail.splitlines()[1 if marks else 0:] if l.strip()]
    print("%s: %s: execution stopped, no executed copy written (%s)\n%s" % (
        path, where, reason, head("\n".join(lines[-HEAD_LINES:]))), file=sys.stderr)
    print("%s: FAILED, nbconvert did not finish (log: %s)" % (path, log_path), file=sys.stderr)
    return 1


def main(argv):
    args, flags, log = [], [], None
    it = iter(argv)
    for a in it:
        if a == "--failed-run":
            log = next(it, None)
            flags.append(a)
        elif a.startswith("--") or a == "-h":
            flags.append(a)
        else:
            args.append(a)
    unknown = [f for f in flags if f not in ("--forbid-path", "--failed-run", "--help", "-h")]
    usage_error = unknown or not args or ("--failed-run" in flags and (log is None or len(args) != 1))
    wants_help = ("--help" in flags or "-h" in flags) and not unknown
    if wants_help or usage_error:
        print(__doc__.strip(), file=sys.stderr)
        if unknown:
            print("unknown flag(s): %s" % " ".join(unknown), file=sys.stderr)
        return 0 if wants_help else 2
    if log is not None:
        return 2 if check_failed_run(log, args[0]) is None else 1
    forbidden = checkout_paths() if "--forbid-path" in flags else []
    status = 0
    for path in args:
        failed = check_notebook(path, forbidden)
        if failed is None:
            status = max(status, 2)
        elif failed:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
