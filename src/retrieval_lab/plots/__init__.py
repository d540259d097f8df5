"""Pictures the notebooks share, one module per course topic, all re-exported here.

Each function draws one idea and returns the Figure, so a test can inspect what was drawn; a
notebook cell passes it to ``show(fig, alt="what it shows")``, which stores one PNG with its alt
text. Colours come only from ``_style``'s Okabe-Ito palette (``tests/test_palette.py`` checks it).
"""

from retrieval_lab.plots._style import COLORS, DIVERGING, GREYS, OKABE_ITO, SERIES, show
from retrieval_lab.plots.bm25 import k1_b_heatmap
from retrieval_lab.plots.cosines import hits_and_non_hits
from retrieval_lab.plots.documents import shared_metadata_diagram
from retrieval_lab.plots.embeddings import similarity_heatmaps, vector_arrows, zero_vector_plot
from retrieval_lab.plots.engines import quantization_bars, recall_latency_spread, suite_grid
from retrieval_lab.plots.loaders import blob_pipeline_diagram, eager_vs_lazy_bars
from retrieval_lab.plots.meaning import attention_heatmap, topic_scatter
from retrieval_lab.plots.pipeline import pipeline_diagram, score_bars
from retrieval_lab.plots.quality import (
    at_k_curves,
    chunking_heatmap,
    threshold_curves,
    wins_and_losses,
)
from retrieval_lab.plots.rerank import quality_vs_cost, rank_moves
from retrieval_lab.plots.retrievers import (
    bm25_saturation,
    grouped_bars,
    run_timeline,
    runnable_graph,
)
from retrieval_lab.plots.scaling import (
    hnsw_walk,
    latency_vs_n,
    recall_vs_latency,
    swap_with_last_delete,
)
from retrieval_lab.plots.splitters import (
    chunk_map,
    chunk_spans,
    merge_window_strip,
    separator_cascade_tree,
)
from retrieval_lab.plots.stores import backend_methods_chart, lambda_sweep, mmr_plane

__all__ = [
    "COLORS",
    "DIVERGING",
    "GREYS",
    "OKABE_ITO",
    "SERIES",
    "at_k_curves",
    "attention_heatmap",
    "backend_methods_chart",
    "blob_pipeline_diagram",
    "bm25_saturation",
    "chunk_map",
    "chunk_spans",
    "chunking_heatmap",
    "eager_vs_lazy_bars",
    "grouped_bars",
    "hits_and_non_hits",
    "hnsw_walk",
    "k1_b_heatmap",
    "lambda_sweep",
    "latency_vs_n",
    "merge_window_strip",
    "mmr_plane",
    "pipeline_diagram",
    "quality_vs_cost",
    "quantization_bars",
    "rank_moves",
    "recall_latency_spread",
    "recall_vs_latency",
    "run_timeline",
    "runnable_graph",
    "score_bars",
    "separator_cascade_tree",
    "shared_metadata_diagram",
    "show",
    "similarity_heatmaps",
    "suite_grid",
    "swap_with_last_delete",
    "threshold_curves",
    "topic_scatter",
    "vector_arrows",
    "wins_and_losses",
    "zero_vector_plot",
]
