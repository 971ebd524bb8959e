"""ember.fuzz: differential fuzzers for the compiler and the lite runtime.

    generator, gen_*    typed, terminating programs over ember's scalar subset
    oracle              run a program under CPython, in process and from a saved artifact
    shrink, programs    delta-debug failing programs; the program campaign
    tensorgen,          small tensor functions (torch under CPython, numpy under ember)
      tensor_shapes,
      tensor_oracle
    passorder           random pass pipelines, the IR verified after every pass
    artifact_seeds,     mutations of real artifacts: they load and run, or fail with
      mutators,         ArtifactError
      entry_mutators,
      artifacts
    threads             one loaded artifact called from many threads at once
    watchdog            time and address-space limits for runaway cases
    cli                 `ember fuzz`: run them for a budget and print a summary

Everything here is deterministic for a given seed. See docs/fuzzing.md.
"""
