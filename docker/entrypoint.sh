#!/usr/bin/env bash
# Entry point of the CANN simulator image (installed as /usr/local/bin/asc-env): loads the CANN
# environment, puts the simulator libraries of ASC_PLATFORM on LD_LIBRARY_PATH, warns when the
# open-files limit is low, then runs the given command (default: an interactive shell).
set -euo pipefail

ASCEND_HOME_PATH=${ASCEND_HOME_PATH:-/usr/local/Ascend/ascend-toolkit/latest}
ASC_PLATFORM=${ASC_PLATFORM:-Ascend950PR_9599}

# The toolkit's own environment script sets the remaining CANN variables. It is not written for
# `set -u`, so it is sourced with that option off.
for env_script in "$ASCEND_HOME_PATH/../set_env.sh" "$ASCEND_HOME_PATH/set_env.sh"; do
    if [ -f "$env_script" ]; then
        set +u
        # shellcheck disable=SC1090
        . "$env_script" >/dev/null
        set -u
        break
    fi
done
export ASCEND_HOME_PATH ASC_PLATFORM

sim_lib=$ASCEND_HOME_PATH/tools/simulator/$ASC_PLATFORM/lib
case ":${LD_LIBRARY_PATH:-}:" in
    *":$sim_lib:"*) ;;
    *) export LD_LIBRARY_PATH="$sim_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
esac
[ -d "$sim_lib" ] || echo "asc-env: warning: no simulator libraries at $sim_lib (ASC_PLATFORM=$ASC_PLATFORM)" >&2

# The simulator keeps many files open at once; see docker/README.md ("Open-files limit").
nofile=$(ulimit -n)
if [ "$nofile" != unlimited ] && [ "$nofile" -lt 65536 ]; then
    echo "asc-env: warning: open-files limit is $nofile; run the container with --ulimit nofile=65536:65536" >&2
fi

if [ "$#" -eq 0 ]; then
    set -- bash
fi
exec "$@"
