"""suites.inference: the rules of MLPerf Inference rounds.

Concern: round facts (``rounds``), the model catalogue (``models``), LoadGen summaries and the primary
metric per scenario (``loadgen``, ``metrics``), accuracy targets (``accuracy``), the results-tree
layout (``tree``), validity as MLCommons' submission checker decides it (``validity``) and the
ingest into ``data/inference-vX.Y/`` (``ingest``).
May import: core, i18n, ingest.
"""
