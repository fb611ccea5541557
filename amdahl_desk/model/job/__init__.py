"""A whole job: one compact step graph per rank, joined at the collectives that tie the ranks together.

:mod:`.rank_graph` makes a rank's compact graph from its trace (in a worker process); :mod:`.join` matches the
ranks' steps and collectives, aligns the hosts' clocks and replays the joined graph; :mod:`.analysis` answers
the job's questions (step time, waiting, the straggler and its cost, what a speedup buys the job).
"""
