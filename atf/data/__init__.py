"""Datasets: benchmark loaders, labelled candidate sets, schemas."""
