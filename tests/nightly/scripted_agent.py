#!/usr/bin/env python3
"""A scripted stand-in for a code-generating agent.

Usage: scripted_agent.py PROMPT_FILE WORKSPACE [--sequence B1,B2,...]

The behaviour comes from $SCRIPTED_BEHAVIOUR, else from ``--sequence`` indexed by the attempt number
the harness passes in $ASC_ATTEMPT (the agent can keep no state outside its workspace). Every run prints what it saw (its argv, the workspace listing, the first
prompt line) so that tests can check what the agent was given.

Behaviours: good (numpy-only kernel with launch), asc2 (a real asc2 abs kernel), asc2_run_hang (that
kernel, passing the static check, then hanging once it has run), wrong (numerically
wrong), noncompile (an asc2 kernel that does not trace), syntax (a Python syntax error), hang (a kernel
that loops forever), running_hang (a kernel that writes $HOME/running, then blocks), agent_hang (the
agent itself never finishes), agent_running_hang (the agent writes $HOME/running, then blocks), nothing (writes no kernel),
stale (only a file dated before the run), golden_copy (copies $SCRIPTED_GOLDEN), hostile (appends to
the files in $SCRIPTED_TAMPER, separated by ':', ignoring failures, starts `setsid sleep $SCRIPTED_SLEEP`
detached, then writes a good kernel).
"""

import os
import shutil
import sys
import time

GOOD = """\
import numpy as np


def launch(x):
    return np.abs(x)
"""

WRONG = """\
import numpy as np


def launch(x):
    return np.abs(x) + 1
"""

HANG = """\
def launch(x):
    while True:
        pass
"""

# Announces that it runs (a file in the sandbox's home, for a test to wait on), then blocks.
RUNNING_HANG = """\
import os
import time


def launch(x):
    open(os.path.join(os.environ["HOME"], "running"), "w").close()
    while True:
        time.sleep(0.05)
"""

SYNTAX = """\
def launch(x)
    return x
"""

ASC2 = """\
import numpy as np
import asc
import asc2

TILE = 128


@asc2.jit
def abs_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, n: int):
    x = asc2.tensor(x_ptr, [n])
    y = asc2.tensor(y_ptr, [n])
    for t in range(asc2.block_idx(), asc.ceildiv(n, TILE), asc2.block_num()):
        i = t * TILE
        asc2.store(asc2.abs(asc2.load(x, [TILE], offsets=[i])), y, offsets=[i])


def launch(x):
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.zeros_like(flat)
    abs_kernel[4](flat, out, flat.size)
    return out.reshape(x.shape)
"""

NONCOMPILE = ASC2.replace("asc2.store(asc2.abs(asc2.load(x, [TILE], offsets=[i])), y, offsets=[i])",
                          "asc2.store(asc2.abs(asc2.load(x, [TILE, 3], offsets=[i])), y, offsets=[i])")


# traces and passes the static check (launches are recorded there, not executed, so the output stays zero),
# then never returns once the kernel has really run
ASC2_RUN_HANG = ASC2.replace("import numpy as np\n", "import time\n\nimport numpy as np\n", 1).replace(
    "    return out.reshape(x.shape)\n",
    "    while np.any(out != 0):\n        time.sleep(1)\n    return out.reshape(x.shape)\n")


def behaviour(args):
    if os.environ.get("SCRIPTED_BEHAVIOUR"):
        return os.environ["SCRIPTED_BEHAVIOUR"]
    seq = args["--sequence"].split(",")
    n = int(os.environ["ASC_ATTEMPT"]) - 1
    return seq[n % len(seq)]


def main():
    argv = sys.argv[1:]
    positional = [a for a in argv if not a.startswith("--")]
    opts = {}
    for i, a in enumerate(argv):
        if a.startswith("--"):
            opts[a] = argv[i + 1]
            positional.remove(argv[i + 1])
    prompt_file, workspace = positional[:2]
    print("argv:", sys.argv[1:])
    print("cwd:", os.getcwd())
    print("listing:", sorted(os.listdir(workspace)))
    with open(prompt_file) as fh:
        print("prompt:", fh.readline().strip())
    print("env:", sorted(k for k in os.environ if not k.startswith("LC_")))
    b = behaviour(opts)
    print("behaviour:", b)
    sys.stdout.flush()
    target = os.path.join(workspace, "abs_kernel.py")
    if b == "agent_hang":
        time.sleep(3600)
    elif b == "agent_running_hang":  # announce the agent runs, then block
        open(os.path.join(os.environ["HOME"], "running"), "w").close()
        while True:
            time.sleep(0.05)
    elif b == "nothing":
        pass
    elif b == "stale":
        path = os.path.join(workspace, "old_kernel.py")
        with open(path, "w") as fh:
            fh.write(GOOD)
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    elif b == "golden_copy":
        shutil.copyfile(os.environ["SCRIPTED_GOLDEN"], target)
    elif b == "hostile":
        for path in filter(None, os.environ.get("SCRIPTED_TAMPER", "").split(":")):
            try:
                with open(path, "a") as fh:
                    fh.write("# written by a hostile agent\n")
                print("tampered:", path)
            except OSError as exc:
                print("refused:", path, type(exc).__name__)
        import subprocess

        subprocess.Popen(["setsid", "sleep", os.environ.get("SCRIPTED_SLEEP", "600")], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(target, "w") as fh:
            fh.write(GOOD)
    else:
        source = {"good": GOOD, "wrong": WRONG, "hang": HANG, "syntax": SYNTAX, "asc2": ASC2,
                  "noncompile": NONCOMPILE, "asc2_run_hang": ASC2_RUN_HANG,
                  "running_hang": RUNNING_HANG}[b]
        os.makedirs(os.path.join(workspace, "notes"), exist_ok=True)
        with open(os.path.join(workspace, "notes", "scratch.py"), "w") as fh:
            fh.write("# an older scratch file\n")
        time.sleep(0.05)
        with open(target, "w") as fh:
            fh.write(source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
