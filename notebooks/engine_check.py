"""What the notebooks share to drive the engine through the Python module: finding
the package (the build tree's, else an installed one) and an exact check of a fresh
run against the closed form."""
import sys
from pathlib import Path

import numpy as np
from scipy import stats


def import_allocsim(root: Path):
    """The `allocsim` package: build/python under the repository root (scripts/build.sh
    puts it there), else whatever `import allocsim` finds."""
    sys.path.insert(0, str(root / "build" / "python"))
    import allocsim
    return allocsim


def p_any_sample_outliers(metrics, family_alpha=1e-6):
    """Rows whose count of replications with a sample is outside the two-sided
    exact binomial acceptance region of the closed form theory_p_any_sample.

    Each replication samples the allocation or not, independently, with probability
    theory_p_any_sample, so replications_with_sample ~ Binomial(replications, p).
    The per-row level is family_alpha / rows (Bonferroni), so the chance that a
    correct engine flags any row is at most family_alpha."""
    rows = metrics[metrics.theory_p_any_sample.notna()]
    if rows.empty:
        raise ValueError("no row has a closed-form theory_p_any_sample to check against")
    alpha = family_alpha / len(rows)
    n = rows.replications.to_numpy()
    k = rows.replications_with_sample.to_numpy()
    p = rows.theory_p_any_sample.to_numpy()
    below = stats.binom.cdf(k, n, p)       # P(K <= k)
    above = stats.binom.sf(k - 1, n, p)    # P(K >= k)
    return rows[np.minimum(below, above) < alpha / 2], len(rows)
