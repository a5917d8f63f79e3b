"""Benchmark loaders over the shared data: counts from the PROVENANCE files, splits, statement shape."""

import json

import pytest

from atf.data.benchmarks import BENCHMARKS, load_benchmark, load_problems, split_header, splits_of, with_sorry

COUNTS = {
    "minif2f": 488,
    "proofnet": 371,
    "putnambench": 672,
    "combibench": 100,
    "formalmath-lite": 418,
    "proverbench": 230,
}


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_every_benchmark_loads_into_the_same_record(data_dir, name):
    problems = load_benchmark(name)
    assert len(problems) == COUNTS[name]
    assert len({p.id for p in problems}) == len(problems)
    for p in problems:
        assert p.informal and "/--" not in p.formal and p.formal.startswith(p.header)
        assert "import Mathlib" in p.header and p.formal.rstrip().endswith("sorry")
        assert p.split in splits_of(name)


def test_splits_match_the_sources(data_dir):
    assert len(load_benchmark("minif2f", "valid")) == 244 and len(load_benchmark("minif2f", "test")) == 244
    assert len(load_benchmark("proofnet", "valid")) == 185
    with pytest.raises(ValueError, match="has splits test"):
        load_benchmark("putnambench", "valid")
    with pytest.raises(ValueError, match="unknown benchmark"):
        load_benchmark("mathlib")


def test_minif2f_record_is_header_plus_statement(data_dir):
    p = next(p for p in load_benchmark("minif2f") if p.id == "amc12a_2015_p10")
    assert p.informal.startswith("Integers $x$ and $y$ with $x>y>0$ satisfy $x+y+xy=80$")
    assert p.header.startswith("import Mathlib\nimport Aesop")
    assert p.formal.endswith(":= by sorry") and "theorem amc12a_2015_p10 (x y : ℤ)" in p.formal


def test_combibench_uses_the_filled_in_answer(data_dir):
    p = next(p for p in load_benchmark("combibench") if p.id == "hackmath_1")
    assert p.informal.endswith("Prove that the answer is 1716.") and "1716" in p.formal and "abbrev" not in p.formal


def test_statement_helpers():
    assert with_sorry("theorem t : 1 = 1 :=") == "theorem t : 1 = 1 := by sorry"
    assert with_sorry("theorem t : 1 = 1 := by\n") == "theorem t : 1 = 1 := by sorry"
    with pytest.raises(ValueError, match="does not end"):
        with_sorry("theorem t : 1 = 1")
    assert split_header("import Mathlib\nopen Real\n\ntheorem t : True := by sorry") == (
        "import Mathlib\nopen Real\n\n",
        "theorem t : True := by sorry",
    )


def test_problems_file(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(
        json.dumps({"id": "a", "informal": "Show 1 = 1."}) + "\n" + json.dumps({"problem": "Show 2 = 2."}) + "\n"
    )
    ps = load_problems(str(path))
    assert [(p.id, p.informal) for p in ps] == [("a", "Show 1 = 1."), ("1", "Show 2 = 2.")]
    path.write_text(json.dumps({"id": "a"}) + "\n")
    with pytest.raises(ValueError, match="needs an 'informal'"):
        load_problems(str(path))
    with pytest.raises(FileNotFoundError, match="neither a benchmark"):
        load_problems(str(tmp_path / "missing.jsonl"))
