quickstart_summary_groups = [
    dict(
        name='quickstart',
        subsets=[['quick_mcq', 'accuracy'], ['quick_short', 'score'], ['quick_numeric', 'accuracy']],
    ),
    dict(
        name='quickstart_weighted',
        subsets=[['quick_mcq', 'accuracy'], ['quick_short', 'score'], ['quick_numeric', 'accuracy']],
        weights={'quick_mcq': 10, 'quick_short': 8, 'quick_numeric': 8},
    ),
]
