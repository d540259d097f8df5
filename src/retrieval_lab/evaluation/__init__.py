"""Measuring retrieval: the labelled questions' metrics, the second stage, timings, comparisons."""
