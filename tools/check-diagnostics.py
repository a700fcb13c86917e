#!/usr/bin/env python3
"""check-diagnostics: keeps the diagnostics catalogue, its documentation and
its tests together.

  check-diagnostics.py docs [--def FILE] [--doc FILE]
      Every error, warning and remark of plugin/diag/Diagnostics.def is listed
      in docs/diagnostics.md, and every message the page lists is in the
      catalogue. The page writes messages in backquotes in its tables' first
      column, arguments as example values; a row may list several messages
      separated by " / ". Within a section introduced by "All read `P...`",
      messages may omit the prefix P.
  check-diagnostics.py coverage DIR [--def FILE]
      Every entry (notes too; not the two internal consistency errors) was
      reported by a compile checked with -verify:
      DIR holds the files the plugin writes when SOAVIEW_DIAG_COVERAGE=DIR
      (tools/run-tests.sh sets it for the lit suite). -verify fails on any
      diagnostic a test does not expect, so a reported entry is a checked one.
Prints what is missing and exits 1, else prints a summary and exits 0.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENTRY = re.compile(r'^SOAVIEW_(DIAG|NOTE)\((\w+),\s*(?:(\w+),\s*"([^"]*)",\s*)?"((?:[^"\\]|\\.)*)"\)\s*$')


def catalogue(path):
    entries = []
    for line in open(path):
        m = ENTRY.match(line.strip())
        if m:
            kind, name, level, flag, text = m.groups()
            text = text.replace('\\"', '"')
            entries.append({"kind": kind, "name": name, "level": level or "Note",
                            "flag": flag or "", "text": text})
    return entries


def pattern(text):
    """The entry's text as a regex: %N stands for any non-empty argument;
    a final argument may be empty (remarks end with where the loop runs)."""
    parts = re.split(r"(%\d)", text)
    out = ""
    for i, p in enumerate(parts):
        if re.fullmatch(r"%\d", p):
            out += ".*" if i == len(parts) - 2 and parts[-1] == "" else ".+"
        else:
            out += re.escape(p)
    return re.compile(out + r"\Z", re.S)


def doc_messages(path):
    """(message, prefix of its section) for each backquoted message in the
    first column of the page's tables."""
    msgs, prefix = [], ""
    for line in open(path):
        if line.startswith("#"):
            prefix = ""
        m = re.search(r"All read `(.*?)\.\.\.`", line)
        if m:
            prefix = m.group(1)
        if not line.startswith("| `"):
            continue
        first = line.replace("\\|", "\x00").split(" | ")[0][2:]
        for part in first.split(" / "):
            mm = re.fullmatch(r"\s*`(.*)`(?:\s*\(.*\))?\s*", part.strip())
            if mm:
                msgs.append((mm.group(1).replace("\x00", "|"), prefix))
    return msgs


def check_docs(a):
    entries = [e for e in catalogue(a.defs) if e["kind"] == "DIAG"]
    msgs = doc_messages(a.doc)
    missing, unknown = [], []
    for e in entries:
        p = pattern(e["text"])
        if not any(p.match(m) or (pre and p.match(pre + m)) for m, pre in msgs):
            missing.append(e)
    for m, pre in msgs:
        if not any(pattern(e["text"]).match(m) or (pre and pattern(e["text"]).match(pre + m))
                   for e in entries):
            unknown.append(m)
    for e in missing:
        print(f"not in {os.path.relpath(a.doc, ROOT)}: {e['name']}: {e['text']}")
    for m in unknown:
        print(f"documented but not in the catalogue: {m}")
    if missing or unknown:
        return 1
    print(f"{len(entries)} catalogue messages, all documented; "
          f"{len(msgs)} documented messages, all in the catalogue")
    return 0


# Consistency errors no input reaches: they make a soaview bug an error
# instead of wrong code (two rewrites of one place; a clone whose parameter
# type checkPlacement accepted but emission cannot find).
INTERNAL = {"err_internal_overlapping_edits", "err_internal_emit"}


def check_coverage(a):
    entries = [e for e in catalogue(a.defs) if e["name"] not in INTERNAL]
    seen = set()
    for f in os.listdir(a.dir):
        seen.update(l.strip() for l in open(os.path.join(a.dir, f)))
    missing = [e for e in entries if e["name"] not in seen]
    for e in missing:
        print(f"no -verify test reports {e['name']}: {e['text']}")
    if missing:
        return 1
    print(f"all {len(entries)} catalogue entries are reported by -verify tests")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("docs")
    d.add_argument("--doc", default=os.path.join(ROOT, "docs", "diagnostics.md"))
    c = sub.add_parser("coverage")
    c.add_argument("dir")
    for p in (d, c):
        p.add_argument("--def", dest="defs",
                       default=os.path.join(ROOT, "plugin", "diag", "Diagnostics.def"))
    a = ap.parse_args()
    return check_docs(a) if a.cmd == "docs" else check_coverage(a)


if __name__ == "__main__":
    sys.exit(main())
