#!/usr/bin/env bash
# Mutation testing of one module against its own test folder, with mutmut 3.
#
#   scripts/mutation.sh MODULE TESTS [PYTEST_ARGS...]
#   scripts/mutation.sh tactical/geometry/arcs.py tests/geometry
#   scripts/mutation.sh tactical/rules/battlefleet_mars/combat.py tests/rules/battlefleet_mars \
#       --ignore-glob='*chi_square*'
#
# PYTEST_ARGS narrow the tests further (the slow sampling tests, say: every surviving
# mutant reruns every test that reaches it, so a slow test is paid once per survivor).
#
# mutmut reads its settings from [tool.mutmut] of the pyproject.toml in the folder it
# runs in, and mutates a copy of the code in a `mutants/` folder there. So that each
# module gets its own settings (only MODULE mutated, only TESTS run) without editing
# the repository, the run happens in a scratch copy, out/mutation/<module>/ (git-ignored):
# tactical/, tests/, maps/, assets/, scripts/ and a pyproject.toml with those settings added.
# Each run starts fresh. Slow (minutes to an hour a module): not part of CI.
#
# Environment: MUTATION_CHILDREN (parallel workers, default 2: the machine is shared),
# MUTMUT (the mutmut command, default .venv/bin/mutmut).
# To look at a survivor afterwards: cd out/mutation/<module> && mutmut show NAME
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: scripts/mutation.sh MODULE TESTS [PYTEST_ARGS...]" \
    "(e.g. tactical/dice/exact.py tests/dice)" >&2
  exit 2
fi
module=$1
tests=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

case "$module" in
  tactical/*.py) ;;
  *) echo "mutation.sh: MODULE must be a file under tactical/ ending in .py, not '$module'" >&2; exit 2 ;;
esac
[ -f "$module" ] || { echo "mutation.sh: no module '$module'" >&2; exit 2; }
[ -e "$tests" ] || { echo "mutation.sh: no test folder '$tests'" >&2; exit 2; }

mutmut=${MUTMUT:-$root/.venv/bin/mutmut}
python=$root/.venv/bin/python
[ -x "$python" ] || python=python3
children=${MUTATION_CHILDREN:-2}

slug=$(echo "${module%.py}" | tr '/' '.')
work=$root/out/mutation/$slug
rm -rf "$work"
mkdir -p "$work"
cp -r tactical tests maps assets scripts pyproject.toml "$work"/
find "$work" -name __pycache__ -type d -prune -exec rm -rf {} +

# this run's settings: mutate only MODULE, select tests only from TESTS
"$python" - "$work/pyproject.toml" "$module" "$tests" "$@" <<'EOF'
import sys
import tomllib

import tomli_w

path, module, tests, *narrowing = sys.argv[1:]
with open(path, "rb") as handle:
    data = tomllib.load(handle)
data.setdefault("tool", {})["mutmut"] = {
    "source_paths": ["tactical"],
    "also_copy": ["maps", "assets", "scripts"],  # tests reach maps and scripts by path
    "only_mutate": [module],
    "pytest_add_cli_args_test_selection": [tests, *narrowing],
    "pytest_add_cli_args": ["-p", "no:cacheprovider"],
}
with open(path, "wb") as handle:
    tomli_w.dump(data, handle)
EOF

export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
cd "$work"
"$mutmut" run --max-children "$children" >"$work/run.log" 2>&1 || {
  tail -40 "$work/run.log" >&2
  echo "mutation.sh: mutmut failed (full log: $work/run.log)" >&2
  exit 1
}

# one line of counts and the score, then every mutant that was not killed
"$mutmut" results --all true >"$work/results.txt"
"$python" - "$module" "$work/results.txt" <<'EOF'
import collections
import sys

module, results = sys.argv[1:]
statuses = collections.Counter()
survivors = []
for line in open(results, encoding="utf-8"):
    name, _, status = line.strip().rpartition(": ")
    if not name:
        continue
    statuses[status] += 1
    if status not in ("killed", "timeout"):
        survivors.append(f"  {status:<10} {name}")
total = sum(statuses.values())
caught = statuses["killed"] + statuses["timeout"]
score = 100 * caught / total if total else 0.0
counts = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
print(f"{module}: {caught}/{total} mutants killed ({score:.1f}%): {counts}")
print("\n".join(survivors))
EOF
