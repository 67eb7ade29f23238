#!/bin/bash
# Issue 44's long runs, as they are run: one lane a core, each run in its folder here, going on
# with it (--resume) where it exists. A session that stops commits the games finished so far
# (.gitignore keeps only run.json and games.jsonl); the next goes on from them.
#
#   nice -n 19 bash docs/results/runs/lanes.sh A    # and B, on the other core
#
# The beliefs' paired runs: 2026-12-05-beliefs.md (the same seed, so the same deals and
# seatings in both arms; uniform-48, the same iterations as the belief's arm, says what the belief is
# worth when it costs nothing). The searching exploiter's rows: 2026-12-05-exploit-search.md, answered
# by ppo-search with the target (or a search target's prior, ppo) as its rollout; the default
# seed, exploit-search-final, which no development run used.
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=docs/results/runs
resume() { [ -e "$1" ] && echo --resume || true; }
beliefs() { # arm agent
  local dir="$runs/beliefs-$1"
  node bin/czech-pub.js tournament --agents "$2,heuristic,heuristic,heuristic" --players 4 --games 2000 --seed beliefs-accept --workers 1 --out "$dir" $(resume "$dir")
}
exploit() { # target players
  local dir="$runs/exploit-by-ppo-search-$1-$2p"
  node bin/czech-pub.js exploit --search --searcher ppo-search --target "$1" --players "$2" --games 1000 --workers 1 --out "$dir" $(resume "$dir")
}
# Rates on the 6 Dec host after the WebAssembly forward pass (d0281df), one lane a core: against
# ppo 0.28 and 0.18 games a second at 4 and 6 players; against ppo-search 0.4-0.57 at 2 players and
# about 0.07 at 6 (a 6-game probe). Last, heuristic by the same searcher, beside best-response's
# rows of 5 Dec.
case "${1:-}" in
  A) beliefs policy ppo-search:beliefs=policy; beliefs uniform-48 ppo-search; exploit ppo 2; exploit ppo 6; exploit ppo-search 4; exploit heuristic 2; exploit heuristic 6 ;;
  B) beliefs uniform-96 ppo-search:iterations=96; exploit ppo 4; exploit ppo-search 2; exploit ppo-search 6; exploit heuristic 4 ;;
  *) echo "usage: lanes.sh A|B" >&2; exit 2 ;;
esac
