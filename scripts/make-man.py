#!/usr/bin/env python3
"""Writes tableref's man page (roff) or its bash completion from the help
texts the program itself prints, so neither can drift from the program.

    make-man.py man TABLEREF OUT.1
    make-man.py completion TABLEREF OUT

Runs `TABLEREF --help` for the command list, then `TABLEREF CMD --help` (and
the help of each sub-step: roster import, tags sheet, calibrate camera ...)
for every command. Run at build time by meson (docs/meson.build)."""
import os
import re
import subprocess
import sys

# Commands with steps of their own, and the steps' names.
STEPS = {
    "roster": ["import"],
    "tags": ["sheet"],
    "calibrate": ["camera", "board", "projector"],
    "bench": ["rules", "vision", "calib", "watch"],
}

# Option values worth completing (the rest complete file names).
VALUES = {
    "--paper": "a4 letter",
    "--for": "camera board projector stills",
    "--move": "auto advance march reform reform-move combat-reform pursuit formation",
    "--family": "tag36h11 tagStandard41h12",
    "--army": "1 2",
}


def run_help(exe, args):
    env = dict(os.environ, LIBCAMERA_LOG_LEVELS="*:ERROR")
    # Leak checking of a sanitizer build is for the tests, not for reading help texts.
    env["ASAN_OPTIONS"] = "detect_leaks=0"
    r = subprocess.run([exe] + args + ["--help"], capture_output=True, text=True, env=env, timeout=60)
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


def helps(exe, cmds):
    """(title, text) for every command and step, in order."""
    out = []
    for name, _ in cmds:
        out.append((name, run_help(exe, [name])))
        for step in STEPS.get(name, []):
            text = run_help(exe, [name, step])
            if text.strip() and text != out[-1][1]:
                out.append((name + " " + step, text))
    return out


def roff_escape(line):
    line = line.replace("\\", "\\e")
    if line.startswith(".") or line.startswith("'"):
        line = "\\&" + line
    return line


def write_man(exe, path, version):
    top, cmds = commands(exe)
    texts = helps(exe, cmds)
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
    for title, text in texts:
        lines += [".SH \"%s\"" % ("TABLEREF " + title.upper()), ".nf"]
        lines += [roff_escape(l) for l in text.rstrip("\n").splitlines()]
        lines += [".fi"]
    lines += [
        ".SH EXIT STATUS",
        "0 legal or done, 1 a rule was broken (or, for the set-up commands, done but",
        "incomplete: what is missing is said), 2 bad input or usage.",
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


def options(text):
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text)))


def write_completion(exe, path):
    _, cmds = commands(exe)
    texts = dict(helps(exe, cmds))
    names = " ".join(n for n, _ in cmds)
    cases = []
    for name, _ in cmds:
        steps = STEPS.get(name, [])
        if steps:
            cases.append('        %s) steps="%s" ;;' % (name, " ".join(steps)))
    opt_cases = []
    for title, text in texts.items():
        opt_cases.append('        "%s") opts="%s --help" ;;' % (title, " ".join(options(text))))
    value_cases = ['        %s) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;' % (k, v) for k, v in VALUES.items()]
    script = """# bash completion for tableref, generated from its help texts by scripts/make-man.py.
_tableref()
{
    local cur prev cmd key steps opts
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "%(names)s --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    case "$cmd" in
%(cases)s
        *) steps="" ;;
    esac
    if [ "$COMP_CWORD" -eq 2 ] && [ -n "$steps" ] && [[ "$cur" != -* ]]; then
        COMPREPLY=($(compgen -W "$steps" -- "$cur"))
        return
    fi
    key=$cmd
    if [ -n "$steps" ] && [ "$COMP_CWORD" -gt 2 ]; then
        key="$cmd ${COMP_WORDS[2]}"
    fi
    case "$prev" in
%(values)s
        --source)
            # The cameras this machine has, and files.
            COMPREPLY=($(compgen -W "$(tableref cameras 2>/dev/null | awk '$1 ~ /^(libcamera|v4l2):/ {print $1}')" -- "$cur") $(compgen -f -- "$cur"))
            return ;;
    esac
    case "$key" in
%(opts)s
        *) opts="--help" ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _tableref tableref
""" % {"names": names, "cases": "\n".join(cases), "values": "\n".join(value_cases), "opts": "\n".join(opt_cases)}
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
