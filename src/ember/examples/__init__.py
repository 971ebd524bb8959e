"""Small bundled examples: a model written with ember.nn and control-flow programs (used by
`ember demo` and the README)."""
