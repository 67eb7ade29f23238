/** Registers the scripted baselines (greedy, cautious, heuristic). */
