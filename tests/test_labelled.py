import json

import pytest

from atf.data.labelled import (
    load_beq,
    load_formalalign,
    load_labelled,
    load_proofnetverif,
    split_of,
)


def test_beq_counts_fields_and_labels(data_dir):
    items = load_beq(data_dir=data_dir)
    assert len(items) == 200
    assert sum(i.label for i in items) == 70  # PROVENANCE: 39 + 31 equivalent
    assert len({i.id for i in items}) == 200
    first = items[0]
    assert first.source == "beq" and first.id == "o1-generated/Rudin.exercise_1_17"
    assert first.problem.startswith("Prove that $|\\mathbf{x}+\\mathbf{y}|^{2}")
    assert first.candidate.startswith("theorem thm_Q") and first.gold.startswith("theorem exercise_1_17")
    assert first.label is False and first.human_labels == [False]
    assert first.header.startswith("import Mathlib")
    by_gen = {
        g: sum(i.label for i in items if i.meta["generator"] == g)
        for g in ("o1-generated", "rautoformalizer-generated")
    }
    assert by_gen == {"o1-generated": 39, "rautoformalizer-generated": 31}


def test_proofnetverif_counts_and_unique_ids(data_dir):
    items = load_proofnetverif(data_dir=data_dir)
    assert len(items) == 100 and sum(i.label for i in items) == 30
    assert len({i.id for i in items}) == 100  # source ids repeat; ours do not
    assert len({i.meta["problem_id"] for i in items}) == 67
    assert items[0].id == "Munkres|exercise_13_4b1#0" and items[0].candidate.startswith("theorem dummy")
    assert items[0].gold.rstrip().endswith(":=")


def test_formalalign_human_labels_and_problem_extraction(data_dir):
    items = load_formalalign(data_dir=data_dir)
    assert len(items) == 80
    assert [sum(i.human_labels[k] for i in items) for k in range(3)] == [47, 50, 38]
    assert sum(i.meta["synthetic_label"] for i in items) == 40
    first = items[0]
    assert first.problem == "Expand the product $(x+1)^2 \\cdot x$. Show that it is x^3 + 2x^2 + x."
    assert first.human_labels == [False, True, False] and first.label is False  # majority of three
    assert first.meta["misalign_type"] == "constant" and first.gold is None
    assert first.full_candidate().startswith("import Mathlib") and first.full_candidate().rstrip().endswith(
        ":= by sorry"
    )


def test_splits_partition_by_problem(data_dir):
    for name in ("beq", "proofnetverif", "formalalign"):
        full = load_labelled(name, data_dir=data_dir)
        dev, test = load_labelled(name, "dev", data_dir), load_labelled(name, "test", data_dir)
        assert len(dev) + len(test) == len(full) and dev and test
        assert not {i.problem for i in dev} & {i.problem for i in test}
    assert split_of("some problem") == split_of("  some problem\n")


def test_bad_input_is_reported_clearly(tmp_path):
    with pytest.raises(FileNotFoundError, match="labelled data file not found"):
        load_beq(data_dir=tmp_path)
    with pytest.raises(ValueError, match="unknown labelled set"):
        load_labelled("nope")
    bad = tmp_path / "beq-human-equivalence"
    bad.mkdir()
    (bad / "human_equivalence_joined.jsonl").write_text(json.dumps({"generator": "g"}) + "\n")
    with pytest.raises(ValueError, match=r"human_equivalence_joined.jsonl:1: malformed BEq record"):
        load_beq(data_dir=tmp_path)
    with pytest.raises(ValueError, match="split must be one of"):
        load_beq(split="train", data_dir=tmp_path.parent)
