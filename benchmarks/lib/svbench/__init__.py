"""svbench: run siren on SV-COMP task definitions, score the answers, report them.

Modules, in pipeline order:
  tasks    -- read SV-COMP task `.yml` files (format 1.0/2.0) into Task values
  outcome  -- classify one finished run (exit code, stdout, expected verdict) into an outcome
  scoring  -- SV-COMP scores, per-configuration and per-folder aggregates, CSV I/O
  runner   -- run siren under wall-clock and memory limits, in parallel
  report   -- markdown summary (summary.md / RESULTS.md)
  plots    -- cactus and scatter plots (matplotlib, Agg backend)
  cli      -- the `benchmarks/run` command line
"""
