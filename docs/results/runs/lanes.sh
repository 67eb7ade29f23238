#!/bin/bash
# Issue 44's long runs, as they are run: one lane a core, each run in its folder here, going on
# with it (--resume) where it exists. A session that stops commits the games finished so far
# (.gitignore keeps only run.json and games.jsonl); the next goes on from them.
#
#   nice -n 19 bash docs/results/runs/lanes.sh A    # and B, on the other core
#
# The beliefs' paired runs: 2026-12-05-beliefs.md (the same seed, so the same deals and
# seatings in both arms).
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=docs/results/runs
resume() { [ -e "$1" ] && echo --resume || true; }
beliefs() { # arm agent
  local dir="$runs/beliefs-$1"
  node bin/czech-pub.js tournament --agents "$2,heuristic,heuristic,heuristic" --players 4 --games 2000 --seed beliefs-accept --workers 1 --out "$dir" $(resume "$dir")
}
# The beliefs' two arms, a lane each. The searching exploiter's runs (exploit-search-ppo-*p,
# `czech-pub exploit --search ... --out DIR --resume`) wait: a probe of 6 Dec
# (2026-12-05-exploit-search.md) found ppo-search, which judges its cut-off by ppo's own value
# head, beating ppo where the best-response search (judged by the linear model fitted to
# heuristic play) did not, at a tenth of the time; which judge the remaining rows use is
# decided before they go on.
case "${1:-}" in
  A) beliefs policy ppo-search:beliefs=policy ;;
  B) beliefs uniform-96 ppo-search:iterations=96 ;;
  *) echo "usage: lanes.sh A|B" >&2; exit 2 ;;
esac
