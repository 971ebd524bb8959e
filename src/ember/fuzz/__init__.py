"""ember.fuzz: differential fuzzers for the compiler and the lite runtime.

    generator   typed, terminating programs over ember's scalar subset
    tensorgen   small tensor functions (torch under CPython, numpy under ember)
    oracle      run a program under CPython, in process and from a saved artifact
    shrink      delta-debug a failing program down to a small reproducer
    passorder   random pass pipelines, the IR verified after every pass
    artifacts   mutations of real artifacts: load cleanly or fail with ArtifactError
    threads     one loaded artifact called from many threads at once
    cli         `ember fuzz`: run them for a time budget and print a summary

Everything here is deterministic for a given seed. See docs/fuzzing.md.
"""
