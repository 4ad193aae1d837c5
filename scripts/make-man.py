#!/usr/bin/env python3
"""Writes tableref's man page (roff) or its bash completion from the
program's own option tables, so neither can drift from the program.

    make-man.py man TABLEREF OUT.1
    make-man.py completion TABLEREF OUT

Runs `TABLEREF --options-dump` for every command, step and option (the
tables the program parses its arguments with), `TABLEREF --help` for the
command list, and `TABLEREF CMD [STEP] --help` (itself printed from the same
tables) for each command's section of the man page. Run at build time by
meson (docs/meson.build)."""
import os
import re
import subprocess
import sys


def program_env():
    env = dict(os.environ, LIBCAMERA_LOG_LEVELS="*:ERROR")
    # Leak checking of a sanitizer build is for the tests, not for reading help texts.
    env["ASAN_OPTIONS"] = "detect_leaks=0"
    return env


class Table:
    """What `tableref --options-dump` says: the commands and steps in order, each one's options, the steps of
    each command that has them, and the options every command takes."""

    def __init__(self, exe):
        r = subprocess.run([exe, "--options-dump"], capture_output=True, text=True, env=program_env(), timeout=60)
        if r.returncode != 0:
            sys.exit("make-man.py: `%s --options-dump` exited %d: %s" % (exe, r.returncode, r.stderr))
        self.commands = []  # "calibrate camera", in order
        self.options = {}  # command -> [option dict]
        self.steps = {}  # command -> [step]
        self.common = []  # the options every command takes
        for line in r.stdout.splitlines():
            f = line.split("\t")
            if f[0] == "command":
                self.commands.append(f[1])
                self.options.setdefault(f[1], [])
            elif f[0] == "steps":
                self.steps[f[1]] = f[2].split()
            elif f[0] == "option":
                o = dict(zip(["command", "name", "kind", "arg", "min", "max", "values", "help"], f[1:]))
                (self.common if o["command"] == "*" else self.options[o["command"]]).append(o)
        if not self.commands:
            sys.exit("make-man.py: `%s --options-dump` lists no command" % exe)


def run_help(exe, args):
    r = subprocess.run([exe] + args + ["--help"], capture_output=True, text=True, env=program_env(), timeout=60)
    if r.returncode != 0:
        sys.exit("make-man.py: `%s %s --help` exited %d: %s" % (exe, " ".join(args), r.returncode, r.stderr))
    return r.stdout


def commands(exe):
    out = run_help(exe, [])
    cmds = []
    in_list = False
    for line in out.splitlines():
        if line.startswith("commands:"):
            in_list = True
            continue
        if in_list:
            m = re.match(r"^  (\S+)\s+(.*)$", line)
            if not m:
                break
            cmds.append((m.group(1), m.group(2)))
    if not cmds:
        sys.exit("make-man.py: no command list in `%s --help`" % exe)
    return out, cmds


def helps(exe, table):
    """(title, text) for every command and step, in the order of the dump."""
    return [(name, run_help(exe, name.split())) for name in table.commands]


def roff_escape(line):
    line = line.replace("\\", "\\e")
    if line.startswith(".") or line.startswith("'"):
        line = "\\&" + line
    return line


def write_man(exe, path, version):
    top, cmds = commands(exe)
    table = Table(exe)
    texts = helps(exe, table)
    lines = [
        '.TH TABLEREF 1 "" "tableref %s" "User Commands"' % version,
        ".SH NAME",
        "tableref \\- a referee for tabletop wargames that watches the table from above",
        ".SH SYNOPSIS",
        ".B tableref",
        ".I COMMAND",
        "[\\fIARGS\\fR...]",
        ".SH DESCRIPTION",
        "Players' model bases carry AprilTags. A camera over the table sees them;",
        "tableref maps every tag onto the board, rebuilds each unit, compares the",
        "table before and after a move and reports each model's distance and every",
        "rule the move broke. A new table is set up with",
        ".BR \"tableref roster import\" ,",
        ".BR \"tableref tags sheet\" ,",
        ".BR \"tableref capture\" ,",
        ".B tableref calibrate",
        "and a table file; see",
        ".I getting-started.md",
        "in the documentation.",
        ".SH COMMANDS",
    ]
    for name, summary in cmds:
        lines += [".TP", ".B %s" % name, roff_escape(summary)]
    if table.common:
        lines += [".SH OPTIONS", "Every command takes these, anywhere after the command:"]
        for o in table.common:
            lines += [".TP", ".B %s%s" % (o["name"], " " + o["arg"] if o["arg"] else "")]
            rng = " [%s..%s]" % (o["min"], o["max"]) if o["kind"] in ("number", "whole") else ""
            lines += [roff_escape(o["help"] + rng)]
    for title, text in texts:
        lines += [".SH \"%s\"" % ("TABLEREF " + title.upper()), ".nf"]
        lines += [roff_escape(l) for l in text.rstrip("\n").splitlines()]
        lines += [".fi"]
    lines += [
        ".SH EXIT STATUS",
        "0 legal or done, 1 a rule was broken (or, for the set-up commands, done but",
        "incomplete: what is missing is said), 2 bad input or usage, 3 (watch) the",
        "camera or recording was lost mid-game. A number outside its option's range",
        "(shown beside the option) is bad input.",
        ".SH FILES",
        "The JSON formats (snapshot, report, roster, calibration, table file) are",
        "described in",
        ".IR formats.md ;",
        "the rules and their codes in",
        ".IR rules.md ,",
        "installed with the documentation (share/doc/tableref).",
        ".SH SEE ALSO",
        "The guide from an empty table to a refereed move:",
        ".IR getting-started.md .",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def shell_quote(words):
    return words.replace("\\", "").replace('"', "").replace("$", "").replace("`", "")


def write_completion(exe, path):
    _, cmds = commands(exe)
    table = Table(exe)
    names = " ".join(n for n, _ in cmds)
    common = " ".join(o["name"] for o in table.common)
    cases = []
    for name, steps in table.steps.items():
        # A command that has options of its own besides its steps (tags IMAGE, tags sheet) also completes files.
        files = "1" if table.options.get(name) else ""
        cases.append('        "%s") steps="%s"; files="%s" ;;' % (name, " ".join(steps), files))
    value_cases = []
    opt_cases = []
    for name in table.commands:
        opts = table.options[name]
        opt_cases.append('        "%s") opts="%s" ;;' % (name, " ".join(o["name"] for o in opts)))
        for o in opts:
            if o["values"]:
                value_cases.append('        "%s %s") COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;'
                                   % (name, o["name"], shell_quote(o["values"])))
    script = """# bash completion for tableref, generated from its option tables (tableref --options-dump)
# by scripts/make-man.py.
_tableref()
{
    local cur prev cmd key steps files opts
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "%(names)s --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    steps=""
    files=""
    case "$cmd" in
%(cases)s
    esac
    if [ "$COMP_CWORD" -eq 2 ] && [ -n "$steps" ] && [[ "$cur" != -* ]]; then
        COMPREPLY=($(compgen -W "$steps" -- "$cur"))
        [ -n "$files" ] && COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    key=$cmd
    if [ -n "$steps" ] && [ "$COMP_CWORD" -gt 2 ] && [[ " $steps " == *" ${COMP_WORDS[2]} "* ]]; then
        key="$cmd ${COMP_WORDS[2]}"
    fi
    case "$key $prev" in
%(values)s
    esac
    case "$prev" in
        --source)
            # The cameras this machine has, and files.
            COMPREPLY=($(compgen -W "$(tableref cameras 2>/dev/null | awk '$1 ~ /^(libcamera|v4l2):/ {print $1}')" -- "$cur") $(compgen -f -- "$cur"))
            return ;;
    esac
    case "$key" in
%(opts)s
        *) opts="" ;;
    esac
    opts="$opts %(common)s --help"
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _tableref tableref
""" % {"names": names, "cases": "\n".join(cases), "values": "\n".join(value_cases), "opts": "\n".join(opt_cases),
       "common": common}
    with open(path, "w") as f:
        f.write(script)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("man", "completion"):
        sys.exit(__doc__)
    kind, exe, out = sys.argv[1:]
    if kind == "man":
        ver = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.split()
        write_man(exe, out, ver[-1] if ver else "")
    else:
        write_completion(exe, out)


if __name__ == "__main__":
    main()
